import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Request, Response } from "express";
import type { Clock } from "../clock";
import type { Database, Queryable } from "../db/client";
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
 * a second factor (a code, a recovery code or a passkey), which the session remembers with its time.
 */
export async function createSession(
  db: Queryable,
  clock: Clock,
  userId: number,
  userAgent?: string | null,
  options: { secondFactor?: boolean } = {},
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
      user: users,
      role: memberships.role,
      companyName: companies.name,
      companyRequiresSecondFactor: companies.requireSecondFactor,
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
export async function resolveSession(db: Database, clock: Clock, token: string): Promise<AuthContext | null> {
  const [row] = await sessionQuery(db).execute({ tokenHash: hashSessionToken(token) });
  if (!row) return null;
  const now = clock.now().getTime();
  if (now >= row.expiresAt.getTime() || now - row.lastUsedAt.getTime() >= sessionIdleLimitMs) {
    await db.delete(sessions).where(eq(sessions.id, row.sessionId));
    return null;
  }
  if (now - row.lastUsedAt.getTime() >= touchIntervalMs) {
    await db
      .update(sessions)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(sessions.id, row.sessionId));
  }
  return {
    user: row.user,
    activeRole: row.role ?? null,
    activeCompanyName: row.companyName ?? null,
    activeCompanyRequiresSecondFactor: row.companyRequiresSecondFactor ?? false,
    sessionId: row.sessionId,
    secondFactorAt: row.secondFactorAt,
  };
}
