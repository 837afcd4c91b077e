import { createHash, randomBytes } from "node:crypto";

export const sessionCookieName = "quorum_session";
export const sessionIdleLimitMs = 14 * 24 * 60 * 60 * 1000;
export const sessionAbsoluteLimitMs = 30 * 24 * 60 * 60 * 1000;

/** 32 random bytes, base64url: the token the client holds. */
export function newSessionToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest is stored, so a leaked sessions table grants nothing. */
export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The session cookie from a raw Cookie header, without a cookie-parser dependency. */
export function readSessionCookie(cookieHeader: string | undefined): string | undefined {
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
