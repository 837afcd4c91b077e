import { createHash } from "node:crypto";

/** Hex SHA-256 of a text's UTF-8 bytes: what a written resolution's and approved minutes' text is known by. */
export function textSha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The WebAuthn challenge of a signing statement: base64url of the SHA-256 of its UTF-8 bytes. A passkey's signature
 * over it therefore commits to every field of the statement.
 */
export function statementChallenge(statement: string): string {
  return createHash("sha256").update(statement, "utf8").digest("base64url");
}
