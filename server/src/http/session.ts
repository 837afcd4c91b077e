import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, notInArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Request, Response } from "express";
import type { Clock } from "../clock";
import type { Database, Queryable } from "../db/client";
import type { LiveBus } from "../db/live-bus";
import { preparedPerDatabase } from "../db/prepared";
import { companies, memberships, sessions, users } from "../db/schema";
import type { AuthContext } from "./request-context";

/**
 * Sessions: the token a client holds, how a request presents it, and how it resolves to the caller.
 * Core rather than a feature: the guards resolve the caller on every request, and signing in and out
 * only create and revoke what is defined here.
 */
export const sessionCookieName = "quorum_session";
export const sessionIdleLimitMs = 14 * 24 * 60 * 60 * 1000;
const sessionAbsoluteLimitMs = 30 * 24 * 60 * 60 * 1000;
/** lastUsedAt is written at most this often, so reads do not each cost a write. */
const touchIntervalMs = 60_000;

/**
 * The bounds a session lives within at `now`: it stands while it expires after `at` and was last used after
 * `idleSince`. Every check of a session (resolving a token, listing a user's sessions, a write that confirms its
 * session in its own statement, the vote taken in one call) takes them from here.
 */
export function sessionBounds(now: Date): { at: Date; idleSince: Date } {
  return { at: now, idleSince: new Date(now.getTime() - sessionIdleLimitMs) };
}

/**
 * The `sessions` row in scope stands within the bounds (values, or placeholders of a statement built once). The
 * database's `session_stands` (migration 0013) says what standing is, for these queries and for the vote taken in one call.
 */
export function sessionStands(bounds: { at: Date | Placeholder; idleSince: Date | Placeholder }): SQL<boolean> {
  return sql<boolean>`session_stands(${sessions.expiresAt}, ${sessions.lastUsedAt}, ${bounds.at}::timestamptz, ${bounds.idleSince}::timestamptz)`;
}

/** 32 random bytes, base64url: the token the client holds. */
function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest is stored, so a leaked sessions table grants nothing. */
function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The session cookie from a raw Cookie header, without a cookie-parser dependency. */
function readSessionCookie(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== sessionCookieName) continue;
    try {
      return decodeURIComponent(rest.join("="));
    } catch {
      return undefined; // not valid percent-encoding: no token, so a 401
    }
  }
  return undefined;
}

/** The token a request presents: the bearer header, or the session cookie on reads only. */
export function readSessionToken(req: Request): string | undefined {
  const header = req.get("authorization");
  if (header?.toLowerCase().startsWith("bearer ")) return header.slice(7).trim() || undefined;
  // The cookie is honoured on reads only, so no state-changing request can ride on it (CSRF).
  if (req.method === "GET" || req.method === "HEAD") return readSessionCookie(req.get("cookie"));
  return undefined;
}

/** The cookie mirrors the bearer token for GET downloads opened in a new tab; it is never accepted on writes. */
export function setSessionCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(sessionCookieName, token, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: sessionAbsoluteLimitMs,
  });
}

export function clearSessionCookie(res: Response): void {
  res.clearCookie(sessionCookieName, { path: "/" });
}

/** Longest User-Agent kept on a session: enough to name a browser and system, not a place to store anything. */
const userAgentMaxLength = 512;

/**
 * A new session for the user; answers the token (only its digest is stored). `secondFactor`: the sign-in passed
 * a second factor (a code, a recovery code or a passkey), which the session remembers with its time. Beyond
 * `maxPerUser` sessions, the user's oldest end (their streams and caches hear it as any revocation): signing in again
 * and again cannot pile up sessions without end.
 */
export async function createSession(
  db: Queryable,
  clock: Clock,
  userId: number,
  userAgent: string | null | undefined,
  options: { secondFactor?: boolean; maxPerUser: number },
): Promise<string> {
  const token = newSessionToken();
  const now = clock.now();
  await db.insert(sessions).values({
    tokenHash: hashSessionToken(token),
    userId,
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + sessionAbsoluteLimitMs),
    secondFactorAt: options.secondFactor ? now : null,
    // eslint-disable-next-line no-control-regex -- control characters have no place in a device name
    userAgent: userAgent ? userAgent.replace(/[\u0000-\u001F\u007F]/g, "").slice(0, userAgentMaxLength) || null : null,
  });
  const newest = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(options.maxPerUser);
  await db.delete(sessions).where(and(eq(sessions.userId, userId), notInArray(sessions.id, newest)));
  return token;
}

/**
 * The query every authenticated request runs: a token's session, its user, and their role in and the name of their
 * active company. Built once per database as a named prepared statement, so a request neither rebuilds the SQL nor
 * has Postgres plan it again.
 */
const sessionQuery = preparedPerDatabase((db) =>
  db
    .select({
      sessionId: sessions.id,
      lastUsedAt: sessions.lastUsedAt,
      expiresAt: sessions.expiresAt,
      secondFactorAt: sessions.secondFactorAt,
      reauthAt: sessions.reauthAt,
      user: users,
      role: memberships.role,
      companyName: companies.name,
      companyRequiresSecondFactor: companies.requireSecondFactor,
      stands: sql<boolean>`${sessionStands({ at: sql.placeholder("at"), idleSince: sql.placeholder("idleSince") })}`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.companyId, users.activeCompanyId)))
    .leftJoin(companies, eq(companies.id, memberships.companyId))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .limit(1)
    .prepare("quorum_resolve_session"),
);

/** Resolves a token to its user and active role in one query; expired sessions are removed. */
export async function resolveSession(db: Database, clock: Clock, token: string, cache?: SessionCache): Promise<AuthContext | null> {
  const tokenHash = hashSessionToken(token);
  const now = clock.now().getTime();
  const cached = cache?.lookup(tokenHash, now);
  if (cached) return cached;
  // Taken before the read: a change heard while it (and the touch) ran means what was read may be stale.
  const epoch = cache?.epoch();
  const [row] = await sessionQuery(db).execute({ tokenHash, ...sessionBounds(new Date(now)) });
  if (!row) return null;
  if (!row.stands) {
    await db.delete(sessions).where(eq(sessions.id, row.sessionId));
    return null;
  }
  if (now - row.lastUsedAt.getTime() >= touchIntervalMs) {
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(sessions.id, row.sessionId));
  }
  const auth: AuthContext = {
    user: row.user,
    activeRole: row.role ?? null,
    activeCompanyName: row.companyName ?? null,
    activeCompanyRequiresSecondFactor: row.companyRequiresSecondFactor ?? false,
    sessionId: row.sessionId,
    secondFactorAt: row.secondFactorAt,
    reauthAt: row.reauthAt,
  };
  cache?.remember(tokenHash, auth, now, row.expiresAt.getTime(), epoch!);
  return auth;
}

/**
 * The sessions an instance has recently resolved, so a signed-in read costs one round trip instead of two. A
 * revocation beats it: every write to a session, a user, a membership or a company notifies every instance (the
 * triggers of migration 0007), which drops what it cached of them before it reads its next request; while the
 * listening connection is down nothing is trusted, and what was cached before it dropped is forgotten.
 */
export interface SessionCache {
  lookup(tokenHash: string, now: number): AuthContext | undefined;
  /** Counts what the cache heard; `remember` keeps a read only if nothing was heard since it began. */
  epoch(): number;
  remember(tokenHash: string, auth: AuthContext, now: number, expiresAt: number, epochBeforeRead: number): void;
  /** Forgets a user's sessions at once: the instance's own writes do not wait for their notification. */
  forgetUser(userId: number): void;
}

/** An entry is read again after this long, so the touch above still happens about once a minute. */
const cacheMaxAgeMs = touchIntervalMs / 2;
const cacheMaxEntries = 10_000;

interface CacheEntry {
  auth: AuthContext;
  cachedAt: number;
  expiresAt: number;
}

export function createSessionCache(bus: LiveBus): SessionCache {
  const entries = new Map<string, CacheEntry>();
  // Each user's entries: every signed-in write forgets its caller's, and must not walk the whole cache to find them.
  const byUser = new Map<number, Set<string>>();
  // A read that began before a change and ends after its notification was handled would put the old state back.
  let heard = 0;
  const drop = (tokenHash: string) => {
    const entry = entries.get(tokenHash);
    if (!entry) return;
    entries.delete(tokenHash);
    const hashes = byUser.get(entry.auth.user.id);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) byUser.delete(entry.auth.user.id);
  };
  const forgetWhere = (matches: (auth: AuthContext) => boolean) => {
    for (const [tokenHash, entry] of entries) if (matches(entry.auth)) drop(tokenHash);
  };
  const forgetUserEntries = (userId: number) => {
    for (const tokenHash of byUser.get(userId) ?? []) entries.delete(tokenHash);
    byUser.delete(userId);
  };
  bus.onAuthChange(({ sessionId, userId, companyId }) => {
    heard += 1;
    if (sessionId !== undefined) forgetWhere((auth) => auth.sessionId === sessionId);
    else if (userId !== undefined) forgetUserEntries(userId);
    // A membership's change names its user as well; a company's own change reaches whoever has it active.
    else if (companyId !== undefined) forgetWhere((auth) => auth.user.activeCompanyId === companyId);
  });
  bus.onListeningChange(() => {
    heard += 1;
    entries.clear();
    byUser.clear();
  });
  return {
    lookup(tokenHash, now) {
      if (!bus.isListening()) return undefined;
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      const age = now - entry.cachedAt;
      if (age < 0 || age >= cacheMaxAgeMs || now >= entry.expiresAt) {
        drop(tokenHash);
        return undefined;
      }
      return entry.auth;
    },
    epoch: () => heard,
    remember(tokenHash, auth, now, expiresAt, epochBeforeRead) {
      if (!bus.isListening() || epochBeforeRead !== heard) return;
      drop(tokenHash);
      // The oldest entry goes first (a Map keeps insertion order).
      if (entries.size >= cacheMaxEntries) drop(entries.keys().next().value!);
      entries.set(tokenHash, { auth, cachedAt: now, expiresAt });
      let hashes = byUser.get(auth.user.id);
      if (!hashes) byUser.set(auth.user.id, (hashes = new Set()));
      hashes.add(tokenHash);
    },
    forgetUser(userId) {
      heard += 1;
      forgetUserEntries(userId);
    },
  };
}
