import { createHash, randomBytes } from "node:crypto";

/** A single-use token (a link sent by e-mail, a challenge the client holds): 32 random bytes, base64url. Only its digest is stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: linkTokenDigest(token) };
}

/** The stored form of such a token: a copy of the table alone opens no link and answers no challenge. */
export function linkTokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** An address inside the app with a link's token in its query (never its path, which request logs record). */
export function linkWithToken(appUrl: string, path: string, token: string): string {
  return `${appUrl.replace(/\/+$/, "")}${path}?token=${encodeURIComponent(token)}`;
}
