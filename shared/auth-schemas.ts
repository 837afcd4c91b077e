// The schemas of the sign-in answers, bound to their types in auth.ts. They sit apart because the sign-in screen
// loads auth.ts: its answers' schemas would only add weight there (the endpoints' declarations use these).
import { answer, answerSchemaFor } from "./answer";
import type { AuthResponse, PlatformAdminCheck, User } from "./auth";
import { companyRoles } from "./roles";

const userShape = {
  id: answer.number().int(),
  username: answer.string(),
  email: answer.string(),
  firstName: answer.string().nullable(),
  lastName: answer.string().nullable(),
  role: answer.enum(companyRoles).nullable(),
  isPlatformAdmin: answer.boolean(),
  profileImageUrl: answer.string().nullable(),
  companyId: answer.number().int().nullable(),
  secondFactor: answer.boolean(),
  emailVerified: answer.boolean(),
  pendingEmail: answer.string().nullable(),
};

export const userSchema = answerSchemaFor<User>()(answer.object(userShape));
export const authResponseSchema = answerSchemaFor<AuthResponse>()(answer.object({ ...userShape, token: answer.string() }));
export const platformAdminCheckSchema = answerSchemaFor<PlatformAdminCheck>()(answer.object({ isPlatformAdmin: answer.boolean() }));
