import { eq } from "drizzle-orm";
import { maskEmail } from "../../../../shared/identity";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import { recordAudit } from "../../db/audit";
import { users } from "../../db/schema";
import { conflict, isUniqueViolation } from "../../http/errors";
import type { UserRow } from "../../http/request-context";
import { consumeAccountToken, countVerificationMail, queueVerificationMail, spentLinkError } from "./account-tokens";
import { activeRoleOf } from "./auth.service";
import { addressProvedByAnotherMessage, lockAddressHolders, provedByAnother, proveAddress } from "../identity/addresses.service";
import { tellAccountHolder } from "../notifications/outbox.service";

// Proving an address: an account's address counts (grants an invitation's seat, reserves the address, makes a
// PLATFORM_ADMINS name an admin) only once its holder followed a link sent to it.

type VerificationDeps = ServiceDeps<"db" | "clock" | "appSecret" | "platformAdmins" | "limits">;

/** Other features (a change of address in the account's settings) count their confirmation mails the same way. */
export { countVerificationMail } from "./account-tokens";

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
  const { db } = deps;
  const change = user.pendingEmail !== null;
  const address = user.pendingEmail ?? (user.emailVerified ? "" : user.email);
  if (!address) {
    throw conflict(user.emailVerified ? "Your e-mail address is already confirmed." : "Give a new e-mail address in Settings first.");
  }
  await countVerificationMail(deps, `user:${user.id}`, address);
  await db.transaction((tx) => queueVerificationMail(tx, deps, { userId: user.id, username: user.username, address, change }));
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
  await queueVerificationMail(tx, deps, { userId: user.id, username: user.username, address: newAddress, change: true });
  await tellAccountHolder(
    tx,
    deps.clock,
    user,
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
