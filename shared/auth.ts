// zod/mini keeps the sign-in screen, which loads before anything else, small (the classic API is ~50 KB gzip more).
import { z } from "zod/mini";
import { email, ignored, limits, password, text, token } from "./input";
import type { CompanyRole } from "./roles";

export const loginSchema = z.object({
  // A username or an e-mail address.
  username: text({ max: limits.login, min: 1, requiredMessage: "Username is required" }),
  password: password("Password is required", 1),
});
export type LoginInput = z.infer<typeof loginSchema>;

const optionalName = z.optional(text({ max: limits.name }));

export const registerSchema = z
  .object({
    username: text({
      max: limits.username,
      min: 3,
      requiredMessage: "Username must be at least 3 characters",
      maxMessage: `Username must be at most ${limits.username} characters`,
    }),
    email: email("Please enter a valid email address"),
    password: password("Password must be at least 6 characters"),
    firstName: optionalName,
    lastName: optionalName,
    // Sent by the form as "founder"; the server ignores it (registrants become founders of the companies they create).
    role: ignored,
    // From an invitation's link: with the invited address, the account is created with it proved and joins the company.
    invitationToken: z.optional(token("This invitation link is not valid. Ask for a new one.", 100)),
  })
  .check(
    // Sign-in accepts a username or an e-mail: a username that looks like an e-mail must be the account's own,
    // or someone could register another person's address as a username and take over their e-mail sign-in.
    z.refine((input) => !input.username.includes("@") || input.username.toLowerCase() === input.email.toLowerCase(), {
      message: "A username with @ must be your own e-mail address",
      path: ["username"],
    }),
  );
export type RegisterInput = z.infer<typeof registerSchema>;

/** The user object of GET /api/auth/user, login and register: `role` is the role in the active company. Never a password hash. */
export interface User {
  id: number;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: CompanyRole | null;
  isPlatformAdmin: boolean;
  profileImageUrl: string | null;
  companyId: number | null;
  /** Whether the user has a second factor (an authenticator app or a passkey). */
  secondFactor: boolean;
  /** Whether the holder proved `email` by a link sent to it. "" with false: another account proved it, give a new one. */
  emailVerified: boolean;
  /** A new address asked for, not yet proved (the account keeps `email` until then). */
  pendingEmail: string | null;
}

/** Login and register: the user object and the session token (also set as the session cookie). */
export interface AuthResponse extends User {
  token: string;
}

/** `GET /api/auth/check-platform-admin`: the server's word on the caller, never the cached user object's. */
export interface PlatformAdminCheck {
  isPlatformAdmin: boolean;
}
