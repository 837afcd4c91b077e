import { z } from "zod";
import { accountSessionSchema, passwordChangedSchema, passwordChangeSchema, profileUpdateSchema, sessionsRevokedSchema } from "../account";
import { userSchema } from "../auth-schemas";
import { preferencesSchema, preferencesUpdateSchema } from "../preferences-update";
import { endpoint } from "./endpoint";

const tag = "Account";
/** The caller's own account only (anyone else: 403); the writes need the bearer token, the cookie alone is a read's. */
const ownAccount = { class: "own-user", by: "param", param: "id" } as const;

export const updateProfile = endpoint({
  method: "PATCH",
  path: "/api/users/:id",
  summary:
    "Change the caller's names or photo, or ask for a new e-mail address: it shows as pendingEmail and takes effect when the link mailed to it is followed (the old address is told); answers the user object",
  tag,
  access: ownAccount,
  body: profileUpdateSchema,
  responses: { 200: userSchema },
  errors: {
    401: "A new e-mail address needs a fresh proof of the password (code reauth_required)",
    429: "Too many confirmation e-mails to the new address asked for by this account today (with Retry-After)",
  },
});

export const changePassword = endpoint({
  method: "PATCH",
  path: "/api/users/:id/password",
  summary: "Change the caller's password; every other session of theirs ends, this one stays",
  tag,
  access: ownAccount,
  body: passwordChangeSchema,
  responses: { 200: passwordChangedSchema },
  errors: {
    401: "No session, or one that has ended; or the session has not proved its holder again in the last 10 minutes (code reauth_required)",
    429: "Too many wrong passwords in the last minute, counted with failed sign-ins (with Retry-After)",
  },
});

export const listSessions = endpoint({
  method: "GET",
  path: "/api/users/:id/sessions",
  summary: "The caller's live sessions: this one first and marked current, then the most recently used",
  tag,
  access: ownAccount,
  responses: { 200: z.array(accountSessionSchema) },
});

export const revokeOtherSessions = endpoint({
  method: "POST",
  path: "/api/users/:id/sessions/revoke-others",
  summary: "Sign out every other session of the caller; answers how many ended",
  tag,
  access: ownAccount,
  responses: { 200: sessionsRevokedSchema },
});

export const getPreferences = endpoint({
  method: "GET",
  path: "/api/users/:id/preferences",
  summary: "The caller's switches in Settings, each over its default",
  tag,
  access: ownAccount,
  responses: { 200: preferencesSchema },
});

export const updatePreferences = endpoint({
  method: "PUT",
  path: "/api/users/:id/preferences",
  summary: "Change the switches given and keep the others; answers them all",
  tag,
  access: ownAccount,
  body: preferencesUpdateSchema,
  responses: { 200: preferencesSchema },
});
