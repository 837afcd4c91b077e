import { and, asc, eq, ne, or, sql } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import type { Queryable } from "../../db/client";
import { users } from "../../db/schema";
import { conflict } from "../../http/errors";
import type { UserRow } from "../../http/request-context";

// Who holds an address. An account's address counts (grants an invitation's seat, reserves the address, makes a
// PLATFORM_ADMINS name an admin) only once its holder proved it: by a verification link, or an invitation's mailed link.
// Both ways end here, so the rule is written once.

export const addressProvedByAnotherMessage = "Another account has already confirmed this e-mail address.";

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
export async function lockAddressHolders(tx: Queryable, userId: number, address: string): Promise<UserRow | undefined> {
  const locked = await tx
    .select()
    .from(users)
    .where(or(eq(users.id, userId), equalsIgnoringCase(users.email, address), equalsIgnoringCase(users.pendingEmail, address)))
    .orderBy(asc(users.id))
    .for("update");
  return locked.find((row) => row.id === userId);
}

export async function provedByAnother(tx: Queryable, address: string, userId: number): Promise<boolean> {
  const [holder] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(equalsIgnoringCase(users.email, address), eq(users.emailVerified, true), ne(users.id, userId)))
    .limit(1);
  return holder !== undefined;
}

/** The accounts "Add Member" made for `address` that nobody has claimed (no password of their holder's yet). */
export const waitingAccountsFor = (address: string) => and(equalsIgnoringCase(users.email, address), eq(users.passwordSet, false));

/**
 * Accounts "Add Member" made for `address` and never claimed go once its holder has an account of their own
 * (`keep`, when it is one of them); their invitations stay for the holder to answer.
 */
export async function releaseWaitingAccounts(tx: Queryable, address: string, keep?: number): Promise<void> {
  await tx.delete(users).where(and(waitingAccountsFor(address), keep === undefined ? undefined : ne(users.id, keep)));
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
  if (!account) throw new Error("the account proving an address is missing");
  if (await provedByAnother(tx, address, userId)) throw conflict(addressProvedByAnotherMessage);

  // An account "Add Member" made for the address and never claimed goes; its invitations wait for the holder.
  await releaseWaitingAccounts(tx, address, userId);
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
    // The account's own spelling of the address stays when it is the one proved.
    .set({ email: wasPending ? address : account.email, emailVerified: true, pendingEmail: wasPending ? null : account.pendingEmail })
    .where(eq(users.id, userId))
    .returning();
  const user = (await grantListedPlatformAdmin(tx, deps.platformAdmins, userId)) ?? proved!;
  return { user, othersLostAddress: [...new Set([...lostAddress, ...lostPending].map((row) => row.id))] };
}
