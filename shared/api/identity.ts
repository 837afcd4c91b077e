import { userSchema } from "../auth-schemas";
import { linkTokenSchema, passwordResetConfirmSchema, passwordResetRequestSchema, reauthSchema } from "../identity";
import { messageAnswerSchema, reauthAnswerSchema } from "../identity-schemas";
import { passkeyLoginSchema } from "../second-factor";
import { passkeyOptionsSchema } from "../second-factor-schemas";
import { endpoint } from "./endpoint";

// Identity: proving an address, password resets, and the fresh proof a security change needs. Tokens from links travel in bodies, never in a path, which the request log records.

const tag = "Identity";
const signedIn = { class: "own-user", by: "session" } as const;
const badLink = "The link's token is malformed or names nothing";
const spentLink = "The link was already used, has expired, or was replaced by a newer one";

export const verifyEmail = endpoint({
  method: "POST",
  path: "/api/auth/verify-email",
  summary:
    "Prove an address by the token of the link sent to it: a registration's address, or a new address asked for, which then replaces the old one. Any other account holding the address unverified loses it",
  tag,
  access: { class: "public" },
  body: linkTokenSchema,
  responses: { 200: userSchema },
  errors: { 400: badLink, 410: spentLink, 409: "Another account proved the address first" },
});

export const resendVerification = endpoint({
  method: "POST",
  path: "/api/auth/verify-email/resend",
  summary: "Send the caller a new verification link (for the pending address when there is one); the older links stop working",
  tag,
  access: signedIn,
  responses: { 202: messageAnswerSchema },
  errors: {
    409: "The address is already verified and no change is pending",
    429: "Too many mails to the address asked for by this account today (with Retry-After)",
  },
});

export const requestPasswordReset = endpoint({
  method: "POST",
  path: "/api/auth/password-reset",
  summary:
    "Mail a link (30 minutes, single use) that sets a new password, to the account that holds the verified address; the same answer whatever the address",
  tag,
  access: { class: "public" },
  body: passwordResetRequestSchema,
  responses: { 202: messageAnswerSchema },
  errors: {
    429: "Too many resets asked for from the caller's IP address in the last hour, or for the address from it today (with Retry-After)",
  },
});

export const confirmPasswordReset = endpoint({
  method: "POST",
  path: "/api/auth/password-reset/confirm",
  summary:
    "Set a new password by the reset link's token: every session of the account ends; a second factor is still asked at the next sign-in",
  tag,
  access: { class: "public" },
  body: passwordResetConfirmSchema,
  responses: { 200: messageAnswerSchema },
  errors: { 400: badLink, 410: spentLink },
});

export const reauthenticate = endpoint({
  method: "POST",
  path: "/api/auth/reauth",
  summary:
    "Prove again who holds this session: the password, and a code from the app where the account has one. Security changes are allowed for 10 minutes after",
  tag,
  access: signedIn,
  body: reauthSchema,
  responses: { 200: reauthAnswerSchema },
  errors: {
    400: "The password or the code is wrong",
    429: "Too many wrong passwords or codes (with Retry-After)",
  },
});

export const reauthPasskeyOptions = endpoint({
  method: "POST",
  path: "/api/auth/reauth/passkey-options",
  summary: "Starts proving this session's holder with a passkey (user verification required): the options for the browser",
  tag,
  access: signedIn,
  responses: { 200: passkeyOptionsSchema },
  errors: { 409: "The caller has no passkey" },
});

export const reauthWithPasskey = endpoint({
  method: "POST",
  path: "/api/auth/reauth/passkey",
  summary: "Proves this session's holder with a passkey of theirs; security changes are allowed for 10 minutes after",
  tag,
  access: signedIn,
  body: passkeyLoginSchema,
  responses: { 200: reauthAnswerSchema },
  errors: { 400: "The answer is for no open challenge of the caller, or does not verify" },
});
