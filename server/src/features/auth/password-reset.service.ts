import { and, eq, isNull, ne, sql } from "drizzle-orm";
import type { PasswordResetConfirm } from "../../../../shared/identity";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { recordAudit } from "../../db/audit";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import { accountTokens, authChallenges, sessions, users } from "../../db/schema";
import { hashPassword } from "../../crypto/passwords";
import { ipLimitKey } from "../../http/ip-limit-key";
import { countAgainstLimit, withinLimit } from "../../http/rate-limit";
import { rateRule } from "../../limits";
import { enqueueMail, sealToken, tellAccountHolder } from "../notifications/outbox.service";
import { consumeAccountToken, isUsableLink, issueAccountToken, refusedLinkError, spentLinkError } from "./account-tokens";
import { clearSecondFactorLock } from "./second-factor-state";

// "Forgot password?": a link (30 minutes, single use) mailed to the account that holds the address verified.

export const passwordResetRequestedMessage =
  "If an account has this e-mail address, a link to choose a new password is on its way. It works for 30 minutes.";
export const passwordResetDoneMessage =
  "Your password was changed and every session of your account was signed out. Sign in with the new password.";

/**
 * `POST /api/auth/password-reset`: mails a reset link to the account whose verified address this is, and nothing
 * to anyone else; the caller cannot tell which happened. Limited per IP and per address from one IP (429 with
 * Retry-After), counted whether or not an account holds the address, so the limit tells nothing either. The address's
 * count is kept per IP: a stranger asking for someone's address does not use up its holder's own requests. Beyond
 * those, one address gets at most so many reset mails a day whoever asks: past that the request is answered as usual
 * and nothing is sent, so requests from many networks neither flood the address nor get its holder told 429.
 */
export async function requestPasswordReset(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "limits">,
  email: string,
  ip: string,
): Promise<void> {
  const { db, clock } = deps;
  const address = email.trim();
  const network = ipLimitKey(ip);
  await countAgainstLimit(db, clock, rateRule(deps, "passwordResetsPerIp"), network);
  await countAgainstLimit(db, clock, rateRule(deps, "passwordResetsPerAddress"), `${address.toLowerCase()} ${network}`);
  // Counted whether or not an account holds the address, as the limits above are.
  if (!(await withinLimit(db, clock, rateRule(deps, "passwordResetMailsPerAddress"), address.toLowerCase()))) return;
  const [holder] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(equalsIgnoringCase(users.email, address), eq(users.emailVerified, true), ne(users.email, "")))
    .limit(1);
  if (!holder) return;
  await db.transaction(async (tx) => {
    const token = await issueAccountToken(tx, clock, { userId: holder.id, purpose: "password-reset", email: holder.email });
    await enqueueMail(tx, [
      {
        userId: holder.id,
        companyId: null,
        to: holder.email,
        message: { type: "password-reset", sealedToken: sealToken(token, deps.appSecret) },
      },
    ]);
  });
}

/**
 * `POST /api/auth/password-reset/confirm`: spends the link and sets the new password; every session of the
 * account ends, its holder is told, and the change joins the platform's audit trail. A second factor stays as it
 * was, so the next sign-in still asks for it; a lock of its second step and the failures behind it are cleared. Answers the account's id. 400 for a token that names nothing, 410 for one used, expired,
 * replaced, or sent to an address the account no longer has.
 */
export async function confirmPasswordReset(deps: ServiceDeps<"db" | "clock">, input: PasswordResetConfirm): Promise<{ userId: number }> {
  const { db, clock } = deps;
  // A forged or spent token is refused before the costly hash; the hash is made before the transaction, which it
  // would hold open.
  if (!(await isUsableLink(db, clock, "password-reset", input.token))) throw await refusedLinkError(db, "password-reset", input.token);
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    const link = await consumeAccountToken(tx, clock, "password-reset", input.token);
    const [account] = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, link.userId), equalsIgnoringCase(users.email, link.email), eq(users.emailVerified, true)))
      .returning({ id: users.id, email: users.email, emailVerified: users.emailVerified });
    if (!account) throw spentLinkError();
    // Whoever guessed codes knew the old password: with it gone, the holder's own next sign-in starts unlocked.
    await clearSecondFactorLock(tx, account.id);
    await forgetWhatTheOldPasswordOpened(tx, clock, account.id);
    const ended = await tx.delete(sessions).where(eq(sessions.userId, account.id)).returning({ id: sessions.id });
    await tellAccountHolder(
      tx,
      clock,
      account,
      "Your password was reset with a link sent to this address, and every session was signed out.",
    );
    await recordAudit(tx, clock, {
      actorId: account.id,
      companyId: null,
      action: "account.password_reset",
      targetType: "user",
      targetId: account.id,
      details: { sessionsEnded: ended.length },
    });
    return { userId: account.id };
  });
}

/**
 * What someone who knew the old password may have left open, undone with a new password (a reset, or a change): a
 * change of address asked for and not yet confirmed (its links die, so nobody takes the account by confirming it
 * later), and sign-ins waiting for their second step.
 */
export async function forgetWhatTheOldPasswordOpened(tx: Queryable, clock: Clock, userId: number): Promise<void> {
  await tx.update(users).set({ pendingEmail: null }).where(eq(users.id, userId));
  await tx
    .update(accountTokens)
    .set({ usedAt: clock.now() })
    .where(
      and(
        eq(accountTokens.userId, userId),
        eq(accountTokens.purpose, "verify-email"),
        isNull(accountTokens.usedAt),
        sql`lower(${accountTokens.email}) <> (select lower(${users.email}) from ${users} where ${users.id} = ${userId})`,
      ),
    );
  await tx.delete(authChallenges).where(eq(authChallenges.userId, userId));
}
