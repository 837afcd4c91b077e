import { and, asc, eq, ne, or, sql } from "drizzle-orm";
import { maskEmail } from "../../../../shared/identity";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { recordAudit } from "../../db/audit";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import { users } from "../../db/schema";
import { conflict, isUniqueViolation } from "../../http/errors";
import { countAgainstLimit } from "../../http/rate-limit";
import type { UserRow } from "../../http/request-context";
import { consumeAccountToken, queueSecurityNotice, queueVerificationMail, spentLinkError } from "./account-tokens";
import { activeRoleOf } from "./auth.service";

// Proving an address: an account's address counts (grants an invitation's seat, reserves the address, makes a
// PLATFORM_ADMINS name an admin) only once its holder followed a link sent to it.

type VerificationDeps = ServiceDeps<"db" | "clock" | "appSecret" | "platformAdmins">;

export const addressProvedByAnotherMessage = "Another account has already confirmed this e-mail address.";

const verificationMailsPerAddress = {
  bucket: "verification-mail",
  limit: 5,
  windowMs: 60 * 60_000,
  message: "Too many confirmation e-mails were sent to this address in the last hour. Try again later.",
};

/** A verification mail to an address counts against its hourly limit (429 with Retry-After beyond it); outside any transaction, so a refused one stays counted. */
export async function countVerificationMail(db: Queryable, clock: Clock, address: string): Promise<void> {
  await countAgainstLimit(db, clock, verificationMailsPerAddress, address.trim().toLowerCase());
}

/** Makes the account a platform admin when PLATFORM_ADMINS names it and its address is proved; answers the row when it changed. */
export async function grantListedPlatformAdmin(
  tx: Queryable,
  platformAdmins: readonly string[],
  userId: number,
): Promise<UserRow | undefined> {
  if (platformAdmins.length === 0) return undefined;
  const names = platformAdmins.map((name) => name.trim().toLowerCase());
  const [granted] = await tx
    .update(users)
    .set({ isPlatformAdmin: true })
    .where(
      and(
        eq(users.id, userId),
        eq(users.emailVerified, true),
        eq(users.isPlatformAdmin, false),
        sql`lower(${users.username}) in (${sql.join(
          names.map((name) => sql`${name}`),
          sql`, `,
        )})`,
      ),
    )
    .returning();
  return granted;
}

/**
 * Locks the account and every other account that names the address (as its address or the one it asks for), in
 * the order of their ids: two accounts proving one address at once queue here rather than each holding its own
 * row while waiting for the other's (a deadlock). Answers the account's row as it stands once locked.
 */
async function lockAddressHolders(tx: Queryable, userId: number, address: string): Promise<UserRow | undefined> {
  const locked = await tx
    .select()
    .from(users)
    .where(or(eq(users.id, userId), equalsIgnoringCase(users.email, address), equalsIgnoringCase(users.pendingEmail, address)))
    .orderBy(asc(users.id))
    .for("update");
  return locked.find((row) => row.id === userId);
}

async function provedByAnother(tx: Queryable, address: string, userId: number): Promise<boolean> {
  const [holder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(equalsIgnoringCase(users.email, address), eq(users.emailVerified, true), ne(users.id, userId)))
    .limit(1);
  return holder !== undefined;
}

/**
 * Records that the account's holder proved the address, in the caller's transaction: it becomes the account's
 * verified address (replacing the old one when it was the pending change), every other account holding it
 * unverified, or asking for it, loses it, and PLATFORM_ADMINS applies. 409 when another account proved it first,
 * and nothing changes. The caller maps a unique violation (a concurrent proof of the same address) to the same 409.
 */
export async function proveAddress(
  tx: Queryable,
  deps: ServiceDeps<"platformAdmins">,
  userId: number,
  address: string,
): Promise<{ user: UserRow; othersLostAddress: number[] }> {
  const account = await lockAddressHolders(tx, userId, address);
  if (!account) throw spentLinkError();
  if (await provedByAnother(tx, address, userId)) throw conflict(addressProvedByAnotherMessage);

  // An unverified address reserved nothing: whoever else named it gives a new one at their next sign-in.
  const lostAddress = await tx
    .update(users)
    .set({ email: "" })
    .where(and(equalsIgnoringCase(users.email, address), eq(users.emailVerified, false), ne(users.id, userId)))
    .returning({ id: users.id });
  const lostPending = await tx
    .update(users)
    .set({ pendingEmail: null })
    .where(and(equalsIgnoringCase(users.pendingEmail, address), ne(users.id, userId)))
    .returning({ id: users.id });

  const wasPending = account.pendingEmail !== null && account.pendingEmail.toLowerCase() === address.toLowerCase();
  const [proved] = await tx
    .update(users)
    .set({ email: address, emailVerified: true, pendingEmail: wasPending ? null : account.pendingEmail })
    .where(eq(users.id, userId))
    .returning();
  const user = (await grantListedPlatformAdmin(tx, deps.platformAdmins, userId)) ?? proved!;
  return { user, othersLostAddress: [...new Set([...lostAddress, ...lostPending].map((row) => row.id))] };
}

/**
 * `POST /api/auth/verify-email`: spends the link's token and proves its address for its account, in one
 * transaction. 400 for a token that names nothing, 410 for one used, expired or replaced (or whose address the
 * account no longer has or asks for), 409 when another account proved the address first (the link stays unused).
 */
export async function verifyEmail(
  deps: VerificationDeps,
  token: string,
): Promise<{ user: UserRow; activeRole: CompanyRole | null; othersLostAddress: number[] }> {
  const { db, clock } = deps;
  try {
    return await db.transaction(async (tx) => {
      const link = await consumeAccountToken(tx, clock, "verify-email", token);
      const account = await lockAddressHolders(tx, link.userId, link.email);
      const address = link.email.toLowerCase();
      const stillWanted = account && (account.pendingEmail?.toLowerCase() === address || account.email.toLowerCase() === address);
      if (!stillWanted) {
        // The account lost the address to the account that proved it, or moved on to another address.
        throw (await provedByAnother(tx, link.email, link.userId)) ? conflict(addressProvedByAnotherMessage) : spentLinkError();
      }
      const change = account.email.toLowerCase() !== address;
      const { user, othersLostAddress } = await proveAddress(tx, deps, account.id, link.email);
      await recordAudit(tx, clock, {
        actorId: user.id,
        companyId: null,
        action: "account.email_verified",
        targetType: "user",
        targetId: user.id,
        details: { change, othersLostAddress: othersLostAddress.length },
      });
      return { user, activeRole: await activeRoleOf(tx, user), othersLostAddress };
    });
  } catch (error) {
    // Another account proved the same address at the same moment (the unique index on verified addresses).
    if (isUniqueViolation(error)) throw conflict(addressProvedByAnotherMessage);
    throw error;
  }
}

/**
 * `POST /api/auth/verify-email/resend`: a new link to the address waiting for proof (the pending change, else the
 * unverified address); the older links stop working. 409 when nothing waits for proof.
 */
export async function resendVerification(deps: VerificationDeps, user: UserRow): Promise<void> {
  const { db, clock } = deps;
  const change = user.pendingEmail !== null;
  const address = user.pendingEmail ?? (user.emailVerified ? "" : user.email);
  if (!address) {
    throw conflict(user.emailVerified ? "Your e-mail address is already confirmed." : "Give a new e-mail address in Settings first.");
  }
  await countVerificationMail(db, clock, address);
  await db.transaction((tx) => queueVerificationMail(tx, deps, { userId: user.id, address, change }));
}

/**
 * Asks for a new address, in the caller's transaction: the account keeps its address and shows the new one as
 * pending until the link mailed to it is followed; the old address is told. Nothing is refused here, even an
 * address another account has proved (the answer must not tell whether one has): no link can take it from them.
 */
export async function requestEmailChange(
  tx: Queryable,
  deps: ServiceDeps<"clock" | "appSecret">,
  user: UserRow,
  newAddress: string,
): Promise<UserRow> {
  const [updated] = await tx.update(users).set({ pendingEmail: newAddress }).where(eq(users.id, user.id)).returning();
  await queueVerificationMail(tx, deps, { userId: user.id, address: newAddress, change: true });
  await queueSecurityNotice(
    tx,
    deps.clock,
    { userId: user.id, address: user.email },
    `A change of your account's e-mail address to ${maskEmail(newAddress)} was asked for; it takes effect once the new address is confirmed.`,
  );
  // The trail is kept for good: it names the new address only partly.
  await recordAudit(tx, deps.clock, {
    actorId: user.id,
    companyId: null,
    action: "account.email_change_requested",
    targetType: "user",
    targetId: user.id,
    details: { to: maskEmail(newAddress) },
  });
  return updated!;
}
