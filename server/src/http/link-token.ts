import { createHash, randomBytes } from "node:crypto";

/** A token for a link sent by e-mail: 32 random bytes, base64url. Only its digest is stored. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: linkTokenDigest(token) };
}

/** The stored form of a link's token: a copy of the table alone opens no link. */
export function linkTokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
