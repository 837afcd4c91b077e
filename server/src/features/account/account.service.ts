import type { AuditAction } from "../../../../shared/audit";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { currentPasswordIncorrectMessage, type AccountSession, type PasswordChange, type ProfileUpdate } from "../../../../shared/account";
import { withDefaults, type Preferences, type PreferencesUpdate } from "../../../../shared/preferences";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { recordAudit } from "../../db/audit";
import { sessions, userPreferences, users } from "../../db/schema";
import { HttpError } from "../../http/errors";
import { assertFreshProof } from "../../http/fresh-proof";
import { hashPassword, verifyPassword } from "../../crypto/passwords";
import type { AuthContext, UserRow } from "../../http/request-context";
import { sessionBounds, sessionStands } from "../../http/session";
import { attemptKeyOf, forgetAttempt, recordAttemptWithinLimit } from "../auth/auth.service";
import { countVerificationMail, requestEmailChange } from "../auth/email-verification.service";
import { forgetWhatTheOldPasswordOpened } from "../auth/password-reset.service";
import { tellAccountHolder } from "../notifications/outbox.service";
import { deviceFromUserAgent } from "./user-agent";

/** The signed-in caller as the account routes see them: the user and the session the request came with. */
export interface Caller {
  user: UserRow;
  sessionId: number;
}

/**
 * Changes the caller's own profile: the fields given, the others kept. An empty image URL removes the photo.
 * A new e-mail address does not replace the old one: it needs a fresh proof (401 `reauth_required`), becomes the
 * pending address and gets a link (see requestEmailChange). The same address in another letter case is kept as typed.
 */
export async function updateProfile(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "limits">,
  auth: Pick<AuthContext, "user" | "reauthAt">,
  input: ProfileUpdate,
): Promise<UserRow> {
  const { db, clock } = deps;
  const userId = auth.user.id;
  const newAddress = input.email !== undefined && input.email.toLowerCase() !== auth.user.email.toLowerCase() ? input.email : null;
  if (newAddress !== null) {
    // Checked before anything is written, so a refused change leaves the other fields as they were too.
    assertFreshProof(clock, auth);
    await countVerificationMail(deps, `user:${userId}`, newAddress);
  }
  const changes: Partial<typeof users.$inferInsert> = {};
  if (input.firstName !== undefined) changes.firstName = input.firstName;
  if (input.lastName !== undefined) changes.lastName = input.lastName;
  if (input.email !== undefined && newAddress === null) changes.email = input.email;
  if (input.profileImageUrl !== undefined) changes.profileImageUrl = input.profileImageUrl || null;
  return db.transaction(async (tx) => {
    const [updated] =
      Object.keys(changes).length === 0
        ? await tx.select().from(users).where(eq(users.id, userId))
        : await tx.update(users).set(changes).where(eq(users.id, userId)).returning();
    if (!updated) throw new HttpError(404, "Not found");
    return newAddress === null ? updated : requestEmailChange(tx, deps, updated, newAddress);
  });
}

/**
 * Changes the caller's password. The current one must be right (400 otherwise): that is the password's proof, and
 * for an account with a second factor the session must also have proved it in the last 10 minutes (401
 * reauth_required otherwise). Wrong guesses count towards the same limit as failed sign-ins, so a stolen session
 * cannot be used to guess the password. On success every other session of the user ends; the one that asked stays
 * signed in, and the holder is told by e-mail. Answers how many sessions were ended.
 */
export async function changePassword(
  deps: ServiceDeps<"db" | "clock">,
  caller: Caller & Pick<AuthContext, "reauthAt">,
  input: PasswordChange,
  ip: string,
): Promise<number> {
  const { db, clock } = deps;
  if (caller.user.secondFactor) assertFreshProof(clock, caller);
  const attemptId = await recordAttemptWithinLimit(db, clock, attemptKeyOf(caller.user), ip);
  if (!(await verifyPassword(caller.user.passwordHash, input.currentPassword))) throw new HttpError(400, currentPasswordIncorrectMessage);
  await forgetAttempt(db, attemptId);
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, caller.user.id));
    await forgetWhatTheOldPasswordOpened(tx, clock, caller.user.id);
    await tellAccountHolder(tx, clock, caller.user, "Your password was changed, and every other device was signed out.");
    return endOtherSessions(tx, clock, caller, "account.password_changed");
  });
}

/** The caller's live sessions in one query: this one first, then the most recently used. */
export async function listSessions({ db, clock }: ServiceDeps<"db" | "clock">, caller: Caller): Promise<AccountSession[]> {
  const now = clock.now();
  const rows = await db
    .select({ id: sessions.id, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(and(eq(sessions.userId, caller.user.id), sessionStands(sessionBounds(now))))
    .orderBy(desc(sql`${sessions.id} = ${caller.sessionId}`), desc(sessions.lastUsedAt), desc(sessions.id));
  return rows.map((row) => ({
    id: row.id,
    device: deviceFromUserAgent(row.userAgent),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    current: row.id === caller.sessionId,
  }));
}

/** Ends every session of the caller but the one asking; answers how many ended. */
export async function revokeOtherSessions({ db, clock }: ServiceDeps<"db" | "clock">, caller: Caller): Promise<number> {
  return db.transaction((tx) => endOtherSessions(tx, clock, caller, "account.sessions_revoked"));
}

/** Deletes the caller's other sessions and records why in the audit trail, inside the caller's transaction. */
async function endOtherSessions(tx: Queryable, clock: Clock, caller: Caller, action: AuditAction): Promise<number> {
  const ended = await tx
    .delete(sessions)
    .where(and(eq(sessions.userId, caller.user.id), ne(sessions.id, caller.sessionId)))
    .returning({ id: sessions.id });
  await recordAudit(tx, clock, {
    actorId: caller.user.id,
    action,
    targetType: "user",
    targetId: caller.user.id,
    details: { otherSessionsEnded: ended.length },
  });
  return ended.length;
}

/** The user's switches over their defaults (a switch never saved reads as its default). */
export async function getPreferences({ db }: ServiceDeps<"db">, userId: number): Promise<Preferences> {
  const [row] = await db.select({ settings: userPreferences.settings }).from(userPreferences).where(eq(userPreferences.userId, userId));
  return withDefaults(row?.settings);
}

/**
 * Saves the switches given and keeps the others, in one statement: two devices saving different switches
 * at once both keep their change (the stored object is merged, not replaced).
 */
export async function updatePreferences(
  { db, clock }: ServiceDeps<"db" | "clock">,
  userId: number,
  input: PreferencesUpdate,
): Promise<Preferences> {
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => typeof value === "boolean")) as Record<string, boolean>;
  const now = clock.now();
  const [row] = await db
    .insert(userPreferences)
    .values({ userId, settings: changes, updatedAt: now })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { settings: sql`${userPreferences.settings} || excluded.settings`, updatedAt: now },
    })
    .returning({ settings: userPreferences.settings });
  return withDefaults(row?.settings);
}
