import { and, eq, gt, isNull } from "drizzle-orm";
import { passwordResetLifetimeMs, verificationLifetimeMs } from "../../../../shared/identity";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { accountTokens, type AccountTokenPurpose } from "../../db/schema";
import { HttpError, badRequest } from "../../http/errors";
import { linkTokenDigest, newLinkToken } from "../../crypto/link-token";
import { countAgainstLimit } from "../../http/rate-limit";
import { rateRule } from "../../limits";
import { enqueueMail, sealToken } from "../notifications/outbox.service";

// The single-use links mailed to an address (a verification, a password reset): 32 random bytes, of which only the
// SHA-256 is stored; the mail's copy is sealed with the app's secret until it is sent.

const lifetimeOf: Record<AccountTokenPurpose, number> = {
  "verify-email": verificationLifetimeMs,
  "password-reset": passwordResetLifetimeMs,
};

export const unknownLinkMessage = "This link is not valid. Ask for a new one.";
export const spentLinkMessage = "This link was already used, has expired, or a newer one replaced it. Ask for a new one.";

/**
 * A new link of this purpose for the account and address; the account's earlier links of the purpose stop working
 * (marked used, so following one tells "spent" rather than "forged"). Answers the token, to be sealed into its mail.
 */
export async function issueAccountToken(
  tx: Queryable,
  clock: Clock,
  link: { userId: number; purpose: AccountTokenPurpose; email: string },
): Promise<string> {
  const now = clock.now();
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.userId, link.userId), eq(accountTokens.purpose, link.purpose), isNull(accountTokens.usedAt)));
  const { token, tokenHash } = newLinkToken();
  await tx.insert(accountTokens).values({
    userId: link.userId,
    purpose: link.purpose,
    tokenHash,
    email: link.email,
    expiresAt: new Date(now.getTime() + lifetimeOf[link.purpose]),
    createdAt: now,
  });
  return token;
}

/** Whether a token is one of these links, usable or not (a forged one is not). */
async function isKnownLink(db: Queryable, purpose: AccountTokenPurpose, token: string): Promise<boolean> {
  const [known] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(and(eq(accountTokens.tokenHash, linkTokenDigest(token)), eq(accountTokens.purpose, purpose)));
  return known !== undefined;
}

const forgedLinkError = () => badRequest(unknownLinkMessage);
export const spentLinkError = () => new HttpError(410, spentLinkMessage);

/** Unused and unexpired: what consuming the link takes. */
const usable = (purpose: AccountTokenPurpose, token: string, now: Date) =>
  and(
    eq(accountTokens.tokenHash, linkTokenDigest(token)),
    eq(accountTokens.purpose, purpose),
    isNull(accountTokens.usedAt),
    gt(accountTokens.expiresAt, now),
  );

/** Whether the link could be used now (a check before costly work; consuming it is still the claim). */
export async function isUsableLink(db: Queryable, clock: Clock, purpose: AccountTokenPurpose, token: string): Promise<boolean> {
  const [row] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(usable(purpose, token, clock.now()));
  return row !== undefined;
}

/** Why a link cannot be used: 410 for one used, expired or replaced, 400 for one that names nothing. */
export async function refusedLinkError(db: Queryable, purpose: AccountTokenPurpose, token: string): Promise<HttpError> {
  return (await isKnownLink(db, purpose, token)) ? spentLinkError() : forgedLinkError();
}

/**
 * Spends a link in one conditional statement: of two requests with the same token, one gets its row and the other
 * finds it used (410). Throws 400 or 410 when it cannot be used.
 */
export async function consumeAccountToken(
  tx: Queryable,
  clock: Clock,
  purpose: AccountTokenPurpose,
  token: string,
): Promise<{ userId: number; email: string }> {
  const now = clock.now();
  const [spent] = await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(usable(purpose, token, now))
    .returning({ userId: accountTokens.userId, email: accountTokens.email });
  if (!spent) throw await refusedLinkError(tx, purpose, token);
  return spent;
}

/** Queues the link that proves an address (a registration's, or a new one asked for: `change`), in the caller's transaction. */
export async function queueVerificationMail(
  tx: Queryable,
  deps: ServiceDeps<"clock" | "appSecret">,
  to: { userId: number; username: string; address: string; change: boolean },
): Promise<void> {
  const token = await issueAccountToken(tx, deps.clock, { userId: to.userId, purpose: "verify-email", email: to.address });
  await enqueueMail(tx, [
    {
      userId: to.userId,
      companyId: null,
      to: to.address,
      message: {
        type: "verify-email",
        address: to.address,
        username: to.username,
        change: to.change,
        sealedToken: sealToken(token, deps.appSecret),
      },
    },
  ]);
}

/**
 * A verification mail to an address counts against its daily limit (429 with Retry-After beyond it), outside any
 * transaction: the count stands whatever happens after. Counted per requester (`user:<id>`, or `ip:<address>` for a
 * registration) and address: asking to move one's account to someone else's address does not use up the
 * confirmation mails of that address's holder.
 */
export async function countVerificationMail(
  deps: ServiceDeps<"db" | "clock" | "limits">,
  requester: string,
  address: string,
): Promise<void> {
  await countAgainstLimit(
    deps.db,
    deps.clock,
    rateRule(deps, "verificationMailsPerAddress"),
    `${requester} ${address.trim().toLowerCase()}`,
  );
}
