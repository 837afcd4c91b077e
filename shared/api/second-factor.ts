import { z } from "zod";
import { authResponseSchema } from "../auth-schemas";
import {
  passkeyLoginOptionsSchema,
  passkeyLoginSchema,
  passkeyRegisterSchema,
  secondFactorLoginSchema,
  totpConfirmSchema,
  totpDisableSchema,
} from "../second-factor";
import { passkeyOptionsSchema, passkeySchema, recoveryCodesSchema, totpSetupSchema, totpStatusSchema } from "../second-factor-schemas";
import { endpoint } from "./endpoint";

// Second factors: the second step of a sign-in, an authenticator app with recovery codes, and passkeys.

const tag = "Second factors";
const signedIn = { class: "own-user", by: "session" } as const;
const signInLimit = "Too many failed attempts for the account or the address in the last minute (with Retry-After)";
/** A security change needs a session that proved its holder again (`POST /api/auth/reauth`) in the last 10 minutes. */
const notFresh =
  "No session, or one that has ended; or the session has not proved its holder again in the last 10 minutes (code reauth_required)";

export const loginSecondFactor = endpoint({
  method: "POST",
  path: "/api/auth/login/second-factor",
  summary: "The second step of a sign-in: a code from the authenticator app or a recovery code (spent once used)",
  tag,
  access: { class: "public" },
  body: secondFactorLoginSchema,
  responses: { 200: authResponseSchema },
  errors: {
    401: "The code is wrong or already used, or the sign-in expired (5 minutes), was already completed, or took five wrong codes",
    429: `${signInLimit}; or the account's second step is locked after 10 failures in an hour (with Retry-After)`,
  },
});

export const getTotpStatus = endpoint({
  method: "GET",
  path: "/api/auth/totp",
  summary: "Whether the caller's authenticator app is on (confirmed)",
  tag,
  access: signedIn,
  responses: { 200: totpStatusSchema },
});

export const setupTotp = endpoint({
  method: "POST",
  path: "/api/auth/totp/setup",
  summary: "Starts setting up an authenticator app: a new secret, as text and as a QR code; it counts once confirmed",
  tag,
  access: signedIn,
  responses: { 200: totpSetupSchema },
  errors: { 401: notFresh, 409: "An authenticator app is already on: turn it off first" },
});

export const confirmTotp = endpoint({
  method: "POST",
  path: "/api/auth/totp/confirm",
  summary: "Confirms the authenticator app with a first code; answers 10 recovery codes, shown this once",
  tag,
  access: signedIn,
  body: totpConfirmSchema,
  responses: { 200: recoveryCodesSchema },
  errors: { 401: notFresh, 400: "The code does not match", 409: "No set-up in progress, or the app is already on", 429: signInLimit },
});

export const disableTotp = endpoint({
  method: "DELETE",
  path: "/api/auth/totp",
  summary: "Turns the authenticator app off (with the password and a current code); its recovery codes go with it",
  tag,
  access: signedIn,
  body: totpDisableSchema,
  responses: { 204: null },
  errors: { 400: "The password or the code is wrong", 404: "No authenticator app is on", 429: signInLimit },
});

export const passkeyRegisterOptions = endpoint({
  method: "POST",
  path: "/api/auth/passkeys/register-options",
  summary: "Starts registering a passkey: the options for the browser (5 minutes)",
  tag,
  access: signedIn,
  responses: { 200: passkeyOptionsSchema },
  errors: { 401: notFresh, 409: "The caller already has the most passkeys one account may have" },
});

export const registerPasskey = endpoint({
  method: "POST",
  path: "/api/auth/passkeys",
  summary: "Registers a passkey from the browser's answer to the options it was given",
  tag,
  access: signedIn,
  body: passkeyRegisterSchema,
  responses: { 201: passkeySchema },
  errors: { 401: notFresh, 400: "The answer is for no open registration of the caller, or does not verify" },
});

export const listPasskeys = endpoint({
  method: "GET",
  path: "/api/auth/passkeys",
  summary: "The caller's passkeys, with when each was last used",
  tag,
  access: signedIn,
  responses: { 200: z.array(passkeySchema) },
});

export const deletePasskey = endpoint({
  method: "DELETE",
  path: "/api/auth/passkeys/:id",
  summary: "Removes one of the caller's passkeys",
  tag,
  access: { class: "own-user", by: "owner", thing: "passkey" },
  responses: { 204: null },
  errors: { 401: notFresh, 404: "No passkey of the caller has this id" },
});

export const passkeyLoginOptions = endpoint({
  method: "POST",
  path: "/api/auth/passkeys/login-options",
  summary: "Starts a sign-in with a passkey (or a passkey as the second step of a sign-in in progress): the options for the browser",
  tag,
  access: { class: "public" },
  body: passkeyLoginOptionsSchema,
  responses: { 200: passkeyOptionsSchema },
  errors: {
    401: "The sign-in in progress expired or has no passkey",
    429: "Too many passkey sign-ins started or sign-ins failed from the address in the last minute (with Retry-After)",
  },
});

export const loginWithPasskey = endpoint({
  method: "POST",
  path: "/api/auth/passkeys/login",
  summary: "Signs in with a passkey: the same answer as a sign-in with password and second factor",
  tag,
  access: { class: "public" },
  body: passkeyLoginSchema,
  responses: { 200: authResponseSchema },
  errors: {
    401: "The answer is for no open challenge, names no registered passkey, or does not verify",
    429: `${signInLimit}; or, as the second step of a sign-in, the account's second step is locked (with Retry-After)`,
  },
});
