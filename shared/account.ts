import { z } from "zod";
import { answer } from "./answer";
import { email, isHttpUrl, limits, password, requiredText, text } from "./input";

export const profileImageUrlMessage = "Please enter a valid https URL";

/** A profile photo: an https address (never http: the page is served over https), or empty for none. */
const profileImageUrl = text({ max: limits.url, maxMessage: profileImageUrlMessage }).check(
  z.refine((value) => value === "" || isHttpUrl(value, ["https:"]), profileImageUrlMessage),
);

const profileFields = {
  firstName: requiredText("First name is required"),
  lastName: requiredText("Last name is required"),
  email: email("Invalid email address"),
  profileImageUrl,
};

/** The Settings profile form: every field present; an empty image URL means no photo. */
export const profileFormSchema = z.object(profileFields);
export type ProfileFormValues = z.infer<typeof profileFormSchema>;

/**
 * `PATCH /api/users/:id`: the fields to change, each optional; an absent one is kept, an empty or null
 * image URL removes the photo. Unknown fields are refused.
 */
export const profileUpdateSchema = z.strictObject({
  firstName: z.optional(profileFields.firstName),
  lastName: z.optional(profileFields.lastName),
  email: z.optional(profileFields.email),
  profileImageUrl: z.nullish(profileFields.profileImageUrl),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const passwordsDontMatchMessage = "Passwords don't match";
export const currentPasswordIncorrectMessage = "Current password is incorrect";

/** `PATCH /api/users/:id/password` and the Security form: the confirmation must repeat the new password. */
export const passwordChangeSchema = z
  .object({
    currentPassword: password("Current password is required", 1),
    newPassword: password("Password must be at least 6 characters"),
    confirmPassword: password("Password confirmation is required"),
  })
  .refine((values) => values.newPassword === values.confirmPassword, { message: passwordsDontMatchMessage, path: ["confirmPassword"] });
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

/** `PATCH /api/users/:id/password`: done, and how many other sessions of the user it ended. */
export const passwordChangedSchema = answer.object({ message: answer.string(), otherSessionsEnded: answer.number().int() });
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

/** One of the user's signed-in sessions, as `GET /api/users/:id/sessions` lists them. */
export const accountSessionSchema = answer.object({
  id: answer.number().int(),
  /** "Chrome on macOS", read from the browser's User-Agent at sign-in; "Unknown device" without one. */
  device: answer.string(),
  createdAt: answer.string(),
  lastUsedAt: answer.string(),
  /** The session this request came from. */
  current: answer.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** `POST /api/users/:id/sessions/revoke-others`: how many sessions ended. */
export const sessionsRevokedSchema = answer.object({ revoked: answer.number().int() });
export type SessionsRevoked = z.infer<typeof sessionsRevokedSchema>;
