import { loginSchema, registerSchema } from "../auth";
import { authResponseSchema, platformAdminCheckSchema, userSchema } from "../auth-schemas";
import { loginAnswerSchema } from "../second-factor-schemas";
import { endpoint } from "./endpoint";

const tag = "Authentication";
const signedIn = { class: "own-user", by: "session" } as const;

export const register = endpoint({
  method: "POST",
  path: "/api/auth/register",
  summary: "Create an account and sign in: the user and the session token, also set as the session cookie",
  tag,
  access: { class: "public" },
  body: registerSchema,
  responses: { 201: authResponseSchema },
  errors: {
    403: "The invitation's link (invitationToken) was sent to another address (named, partly masked)",
    404: "The invitation's link names no invitation",
    409: "The username or the e-mail address is taken, in any letter case, or the invitation was already accepted",
    410: "The invitation expired, was declined or withdrawn",
    429: "Too many registrations from the caller's IP address in the last hour, or confirmation mails to the address today (with Retry-After)",
  },
});

export const login = endpoint({
  method: "POST",
  path: "/api/auth/login",
  summary:
    "Sign in with a username or an e-mail address: the user and the session token, also set as the session cookie; with a second factor on, a challenge for the second step instead (no session yet)",
  tag,
  access: { class: "public" },
  body: loginSchema,
  responses: { 200: loginAnswerSchema },
  errors: {
    401: "Unknown user or wrong password (the same answer for both)",
    429: "Too many failed sign-ins for the account or the address in the last minute (with Retry-After)",
  },
});

export const logout = endpoint({
  method: "POST",
  path: "/api/auth/logout",
  summary: "End the caller's session and clear the session cookie",
  tag,
  access: signedIn,
  responses: { 204: null },
});

export const currentUser = endpoint({
  method: "GET",
  path: "/api/auth/user",
  summary: "The signed-in user, with their role in the active company",
  tag,
  access: signedIn,
  responses: { 200: userSchema },
});

export const checkPlatformAdmin = endpoint({
  method: "GET",
  path: "/api/auth/check-platform-admin",
  summary: "Whether the caller administers the platform",
  tag,
  access: signedIn,
  responses: { 200: platformAdminCheckSchema },
});
