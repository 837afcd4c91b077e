import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { maskEllipsis } from "../../../shared/platform";

/**
 * AES-256-GCM for service keys at rest. The stored form is "v1.<iv>.<tag>.<ciphertext>" (base64url),
 * with a random 96-bit IV per write; the key is the SHA-256 of APP_SECRET.
 */
const version = "v1";

export class SecretDecryptionError extends Error {
  constructor() {
    super("A stored service key could not be decrypted: APP_SECRET differs from the one it was written with, or the value is damaged.");
    this.name = "SecretDecryptionError";
  }
}

const keyFrom = (appSecret: string) => createHash("sha256").update(appSecret, "utf8").digest();

/**
 * HMAC-SHA256 under a key derived from APP_SECRET for one purpose ("calendar feed", "unsubscribe", ...): a value
 * signed or hashed for one purpose is worthless for another, and nothing computed with it can be forged or
 * recomputed without the secret.
 */
export function hmacFor(purpose: string, appSecret: string, data: string): Buffer {
  const key = createHash("sha256").update(`quorum ${purpose}\0${appSecret}`).digest();
  return createHmac("sha256", key).update(data).digest();
}

export function encryptSecret(plaintext: string, appSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(appSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [version, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export function decryptSecret(stored: string, appSecret: string): string {
  const [prefix, iv, tag, ciphertext] = stored.split(".");
  if (prefix !== version || !iv || !tag || ciphertext === undefined) throw new SecretDecryptionError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyFrom(appSecret), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM authenticates: a wrong key fails here instead of yielding garbage.
    throw new SecretDecryptionError();
  }
}

/** The only form in which a key leaves the server: its first 8 characters and an ellipsis (fewer for short keys). */
export function maskSecret(plaintext: string): string {
  const shown = plaintext.length > 12 ? 8 : Math.max(0, Math.floor(plaintext.length / 3));
  return `${plaintext.slice(0, shown)}${maskEllipsis}`;
}
