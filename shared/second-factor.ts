// Second factors: an authenticator app (TOTP) with one-time recovery codes, and passkeys (WebAuthn). zod/mini:
// the sign-in screen reads the second step's schema, and it loads before anything else.
import { z } from "zod/mini";
import type { AuthResponse } from "./auth";
import { limits, password, text, token, webauthnResponse } from "./input";

export const secondFactorMethods = ["totp", "recovery", "passkey"] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

/** `POST /api/auth/login` when the password was right and a second factor is due: no session yet. */
export interface SecondFactorChallenge {
  secondFactorRequired: true;
  /** Names this sign-in for the second step; lives 5 minutes and is spent by a successful second step. */
  challenge: string;
  methods: SecondFactorMethod[];
}

export type LoginAnswer = AuthResponse | SecondFactorChallenge;

export const isSecondFactorChallenge = (answer: LoginAnswer): answer is SecondFactorChallenge => "secondFactorRequired" in answer;

/** Six digits from an authenticator app. */
export const totpCodePattern = /^\d{6}$/;
/** A recovery code as shown: two groups of five letters or digits (no 0, 1, i, l, o, which read alike). */
export const recoveryCodePattern = /^[a-hjkmnp-z2-9]{5}-[a-hjkmnp-z2-9]{5}$/;
export const secondFactorCodeMessage = "Enter the 6-digit code from your app or a recovery code";
export const totpCodeMessage = "Enter the 6-digit code from your app";

/** The challenge token a sign-in in progress was given (base64url of 32 bytes). */
const challengeToken = token("The sign-in has expired. Please sign in again.", 100);

const totpCode = text({ max: 16, requiredMessage: totpCodeMessage }).check(
  z.refine((value) => totpCodePattern.test(value), totpCodeMessage),
);

export const secondFactorLoginSchema = z.object({
  challenge: challengeToken,
  code: text({ max: 32, requiredMessage: secondFactorCodeMessage }).check(
    z.toLowerCase(),
    z.refine((value) => totpCodePattern.test(value) || recoveryCodePattern.test(value), secondFactorCodeMessage),
  ),
});
export type SecondFactorLoginInput = z.infer<typeof secondFactorLoginSchema>;

/** Whether the caller's authenticator app is on (a passkey alone also makes the user's `secondFactor` true). */
export interface TotpStatus {
  enabled: boolean;
}

export interface TotpSetup {
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a QR code, an SVG drawn on the server (nothing leaves it). */
  qrSvg: string;
}

export const totpConfirmSchema = z.object({ code: totpCode });
export type TotpConfirmInput = z.infer<typeof totpConfirmSchema>;

export interface RecoveryCodes {
  /** Shown once: only their hashes are kept. */
  recoveryCodes: string[];
}

export const totpDisableSchema = z.object({ password: password("Password is required", 1), code: totpCode });
export type TotpDisableInput = z.infer<typeof totpDisableSchema>;

export interface Passkey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A WebAuthn ceremony's options (the browser library's JSON form), and the challenge token that names it. */
export interface PasskeyOptions {
  challenge: string;
  options: Record<string, unknown>;
}

export const passkeyLimits = { name: limits.name, perUser: 20 } as const;

const webauthnAnswer = webauthnResponse("The passkey's answer could not be read");

/** The registration's challenge is read from the response itself and must be one the server gave the caller. */
export const passkeyRegisterSchema = z.object({
  name: text({ max: passkeyLimits.name, min: 1, requiredMessage: "Name the passkey", singleLine: true }),
  response: webauthnAnswer,
});
export type PasskeyRegisterInput = z.infer<typeof passkeyRegisterSchema>;

export const passkeyLoginOptionsSchema = z.object({
  /** A sign-in in progress whose second factor is a passkey: the options then name that user's passkeys. */
  challenge: z.optional(challengeToken),
});

export const passkeyLoginSchema = z.object({ challenge: challengeToken, response: webauthnAnswer });
export type PasskeyLoginInput = z.infer<typeof passkeyLoginSchema>;
