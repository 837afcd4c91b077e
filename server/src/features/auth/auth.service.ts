import { and, asc, desc, eq, gt, lt, ne, or, sql } from "drizzle-orm";
import type { LoginInput, RegisterInput } from "../../../../shared/auth";
import type { SecondFactorChallenge, SecondFactorMethod } from "../../../../shared/second-factor";
import type { CompanyRole } from "../../../../shared/roles";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Database, Queryable } from "../../db/client";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import { loginAttempts, memberships, passkeys, sessions, totpFactors, users } from "../../db/schema";
import { HttpError, conflict, isUniqueViolation } from "../../http/errors";
import { hashPassword, verifyPassword } from "../../crypto/passwords";
import { ipLimitKey } from "../../http/ip-limit-key";
import { countAgainstLimit } from "../../http/rate-limit";
import { limitOf, rateRule } from "../../limits";
import type { UserRow } from "../../http/request-context";
import { createSession } from "../../http/session";
import { invitationForRegistration, joinByInvitation } from "../companies/invitations.service";
import { releaseWaitingAccounts } from "../identity/addresses.service";
import { countVerificationMail, queueVerificationMail } from "./account-tokens";
import { issueChallenge } from "./second-factor-state";

const invalidCredentialsMessage = "Invalid username or password";
const failedLoginsPerUsername = 10;
const failedLoginsPerIp = 100;
const rateWindowMs = 60_000;

type AuthServiceDeps = ServiceDeps<"db" | "clock" | "platformAdmins" | "appSecret" | "limits">;

export interface SignedIn {
  user: UserRow;
  activeRole: CompanyRole | null;
  token: string;
}

const lower = (value: string) => value.trim().toLowerCase();

/** `givingWay`: an account made for an invited address, which its holder's registration replaces. */
async function findTakenField(db: Queryable, username: string, email: string, givingWay?: number): Promise<"username" | "email" | null> {
  const [taken] = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(
      and(
        or(
          equalsIgnoringCase(users.username, username.trim()),
          // An unverified address reserves nothing: only an account that proved it holds it.
          and(equalsIgnoringCase(users.email, email.trim()), eq(users.emailVerified, true)),
        ),
        givingWay === undefined ? undefined : ne(users.id, givingWay),
      ),
    )
    .limit(1);
  if (!taken) return null;
  return lower(taken.username) === lower(username) ? "username" : "email";
}

function takenError(field: "username" | "email"): HttpError {
  return conflict(field === "username" ? "Username already exists" : "Email already registered");
}

/** Looks up the role a user holds in their active company. */
export async function activeRoleOf(db: Queryable, user: UserRow): Promise<CompanyRole | null> {
  if (user.activeCompanyId == null) return null;
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.userId, user.id), eq(memberships.companyId, user.activeCompanyId)));
  return row?.role ?? null;
}

/**
 * `POST /api/auth/register`: counted against the registrations of the caller's IP address (429 with Retry-After
 * beyond them) before the costly password hash.
 */
export async function register(deps: AuthServiceDeps, input: RegisterInput, ip: string, userAgent?: string): Promise<SignedIn> {
  const { db, clock } = deps;
  // An invitation's link is checked before anything is written: a bad one, or one sent to another address, makes no account.
  const invitation = input.invitationToken ? await invitationForRegistration(deps, input.invitationToken, input.email) : null;
  const taken = await findTakenField(db, input.username, input.email, invitation?.waitingAccountId ?? undefined);
  if (taken) throw takenError(taken);
  const network = ipLimitKey(ip);
  await countAgainstLimit(db, clock, rateRule(deps, "registrationsPerIp"), network);
  // Each registration mails a confirmation to the address it names: the address's daily limit of them holds here too.
  if (!invitation?.provesAddress) await countVerificationMail(deps, `ip:${network}`, input.email);
  const passwordHash = await hashPassword(input.password);
  // The very first account on an empty database administers the platform, and counts as verified (nobody could
  // have proved the address before it). Two sign-ups racing on an empty Postgres could both see it empty and
  // both become admins: harmless (npm run admin -- revoke).
  const firstAccount = sql<boolean>`not exists (select 1 from ${users})`;
  try {
    return await db.transaction(async (tx) => {
      // The account "Add Member" made for the invited address gives way to the one its holder registers.
      if (invitation) await releaseWaitingAccounts(tx, invitation.email);
      const [user] = await tx
        .insert(users)
        .values({
          username: input.username.trim(),
          email: input.email.trim(),
          passwordHash,
          firstName: input.firstName?.trim() || null,
          lastName: input.lastName?.trim() || null,
          isPlatformAdmin: firstAccount,
          emailVerified: firstAccount,
        })
        .returning();
      if (!user) throw new Error("insert returned no user");
      // Any later account proves its address by the link mailed to it, and PLATFORM_ADMINS applies to it only then;
      // an invitation's mailed link, followed to get here, proves it as the invitation is accepted below. The link
      // shown to the inviter proves nothing (the inviter holds it too): that account confirms its address as any other.
      if (!user.emailVerified && !invitation?.provesAddress)
        await queueVerificationMail(tx, deps, { userId: user.id, username: user.username, address: user.email, change: false });

      // Registering joins no company by itself: only the invitation whose link the registrant followed.
      const joined = invitation ? await joinByInvitation(tx, deps, invitation, user.id) : null;
      const token = await createSession(tx, clock, user.id, userAgent, { maxPerUser: limitOf(deps, "sessionsPerUser") });
      return { user: joined?.user ?? user, activeRole: joined?.role ?? null, token };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      // Lost a race with a concurrent registration of the same name or e-mail.
      throw takenError((await findTakenField(db, input.username, input.email)) ?? "username");
    }
    throw error;
  }
}

const tooManyAttempts = () =>
  new HttpError(429, "Too many failed sign-in attempts. Please wait a minute and try again.", {
    "Retry-After": String(rateWindowMs / 1000),
  });

/**
 * The sign-in limit, also asked by anything else that checks a password (a password change): 10 failures
 * a minute per account, 100 per IP, all password checks counted together.
 * Records this attempt, then counts the attempts of the window including it, so concurrent attempts
 * all see each other (counting first and recording after a slow password check let a burst through).
 * Answers the attempt's id: a successful sign-in removes it again. `accountKey` null: an attempt that names no
 * account (a passkey sign-in started), held to the address's limit only.
 */
export async function recordAttemptWithinLimit(db: Database, clock: Clock, accountKey: string | null, clientIp: string): Promise<number> {
  // An IPv6 client counts as its /64, as for every limit kept per IP.
  const ip = ipLimitKey(clientIp);
  const now = clock.now();
  const [attempt] = await db
    .insert(loginAttempts)
    .values({ username: accountKey ?? "", ip, attemptedAt: now })
    .returning({ id: loginAttempts.id });
  const windowStart = new Date(now.getTime() - rateWindowMs);
  const [counts] = await db
    .select({
      byAccount: sql<number>`count(*) filter (where ${loginAttempts.username} = ${accountKey ?? ""})`.mapWith(Number),
      byIp: sql<number>`count(*) filter (where ${loginAttempts.ip} = ${ip})`.mapWith(Number),
    })
    .from(loginAttempts)
    .where(and(gt(loginAttempts.attemptedAt, windowStart), or(eq(loginAttempts.username, accountKey ?? ""), eq(loginAttempts.ip, ip))));
  const accountOver = accountKey !== null && (counts?.byAccount ?? 0) > failedLoginsPerUsername;
  if (accountOver || (counts?.byIp ?? 0) > failedLoginsPerIp) throw tooManyAttempts();
  return attempt!.id;
}

/** What a user may use for the second step of a sign-in, in one query: an authenticator app (and its recovery codes), a passkey. */
export async function secondFactorMethodsOf(db: Queryable, userId: number): Promise<SecondFactorMethod[]> {
  const [row] = await db
    .select({
      totp: sql<boolean>`exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${userId} and ${totpFactors.confirmedAt} is not null)`,
      passkey: sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  const methods: SecondFactorMethod[] = [];
  if (row?.totp) methods.push("totp", "recovery");
  if (row?.passkey) methods.push("passkey");
  return methods;
}

/**
 * Signs in by username or e-mail; unknown user and wrong password fail alike. With a second factor on, the right
 * password opens a sign-in (a challenge for the second step) instead of a session.
 */
export async function login(
  deps: AuthServiceDeps,
  input: LoginInput,
  ip: string,
  userAgent?: string,
): Promise<SignedIn | SecondFactorChallenge> {
  const { db, clock } = deps;
  const name = lower(input.username);
  const [user] = await db
    .select()
    .from(users)
    // An account made by "Add Member" has no password of its holder's yet: it is not found, so it fails as an
    // unknown name does (the same 401, through the same throwaway hash).
    .where(and(eq(users.passwordSet, true), or(equalsIgnoringCase(users.username, name), equalsIgnoringCase(users.email, name))))
    // The account that proved the address comes first: a username that is someone's address (taken while it was
    // unproved, which reserves nothing) never beats its holder. Then an exact username, then the oldest account that
    // names the address unproved.
    .orderBy(
      desc(and(eq(users.emailVerified, true), equalsIgnoringCase(users.email, name))!),
      desc(equalsIgnoringCase(users.username, name)),
      asc(users.id),
    )
    .limit(1);
  // Failures count per account, however it was named; an unknown name counts as itself.
  const attemptId = await recordAttemptWithinLimit(db, clock, user ? attemptKeyOf(user) : name, ip);
  const valid = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !valid) {
    // Old attempts no longer count; dropping them keeps the table small.
    await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, new Date(clock.now().getTime() - 10 * rateWindowMs)));
    throw new HttpError(401, invalidCredentialsMessage);
  }
  await forgetAttempt(db, attemptId);
  if (user.secondFactor) {
    const challenge = await issueChallenge(db, clock, { purpose: "second-factor", userId: user.id });
    return { secondFactorRequired: true, challenge, methods: await secondFactorMethodsOf(db, user.id) };
  }
  return signedIn(db, clock, user, userAgent, { maxPerUser: limitOf(deps, "sessionsPerUser") });
}

/** A new session for a user whose sign-in is complete: the user, their active role and the token. */
export async function signedIn(
  db: Queryable,
  clock: Clock,
  user: UserRow,
  userAgent: string | undefined,
  options: { secondFactor?: boolean; maxPerUser: number },
): Promise<SignedIn> {
  const token = await createSession(db, clock, user.id, userAgent, options);
  return { user, activeRole: await activeRoleOf(db, user), token };
}

/** A password check that succeeded is not a failure: its attempt no longer counts. */
export async function forgetAttempt(db: Queryable, attemptId: number): Promise<void> {
  await db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId));
}

/** The key failures of one account are counted under, however it was named. */
export const attemptKeyOf = (user: { username: string }) => lower(user.username);

export async function logout({ db }: ServiceDeps<"db">, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/**
 * Grants or revokes platform-admin rights by username (CLI and PLATFORM_ADMINS). A grant reaches only accounts whose
 * address is verified (a name in PLATFORM_ADMINS gets it when its account proves its address). Returns how many
 * accounts changed.
 */
export async function setPlatformAdmin({ db }: ServiceDeps<"db">, usernames: readonly string[], isPlatformAdmin: boolean): Promise<number> {
  if (usernames.length === 0) return 0;
  const names = usernames.map(lower);
  const updated = await db
    .update(users)
    .set({ isPlatformAdmin })
    .where(
      and(
        sql`lower(${users.username}) in (${sql.join(
          names.map((name) => sql`${name}`),
          sql`, `,
        )})`,
        isPlatformAdmin ? eq(users.emailVerified, true) : undefined,
      ),
    )
    .returning({ id: users.id });
  return updated.length;
}
