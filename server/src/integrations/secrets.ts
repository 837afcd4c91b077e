import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { maskEllipsis } from "../../../shared/platform";

/**
 * AES-256-GCM at rest. The stored form is "v1.<iv>.<tag>.<ciphertext>" (base64url), with a random 96-bit IV per
 * write. Service keys are sealed under the SHA-256 of APP_SECRET; what belongs to one person (a director's notes)
 * under a key of their own, derived from APP_SECRET with HKDF (`sealFor`).
 */
const version = "v1";

export class SecretDecryptionError extends Error {
  constructor(what = "A stored service key") {
    super(`${what} could not be decrypted: APP_SECRET differs from the one it was written with, or the value is damaged.`);
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

function encryptWith(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [version, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

function decryptWith(key: Buffer, stored: string, what?: string): string {
  const [prefix, iv, tag, ciphertext] = stored.split(".");
  if (prefix !== version || !iv || !tag || ciphertext === undefined) throw new SecretDecryptionError(what);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM authenticates: a wrong key fails here instead of yielding garbage.
    throw new SecretDecryptionError(what);
  }
}

export function encryptSecret(plaintext: string, appSecret: string): string {
  return encryptWith(keyFrom(appSecret), plaintext);
}

export function decryptSecret(stored: string, appSecret: string): string {
  return decryptWith(keyFrom(appSecret), stored);
}

/**
 * The key of one purpose ("paper note") and one subject (its author's user id): HKDF-SHA256 over APP_SECRET, so a
 * value sealed for one person cannot be opened under another's key, and none without the secret.
 */
function keyOf(purpose: string, subject: string, appSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, "quorum", `${purpose}\0${subject}`, 32));
}

/** Seals `plaintext` for one subject of one purpose (see `keyOf`). */
export function sealFor(purpose: string, subject: string | number, appSecret: string, plaintext: string): string {
  return encryptWith(keyOf(purpose, String(subject), appSecret), plaintext);
}

/** Opens what `sealFor` sealed for the same purpose and subject; a SecretDecryptionError otherwise. */
export function unsealFor(purpose: string, subject: string | number, appSecret: string, stored: string): string {
  return decryptWith(keyOf(purpose, String(subject), appSecret), stored, `A sealed ${purpose}`);
}

/** The only form in which a key leaves the server: its first 8 characters and an ellipsis (fewer for short keys). */
export function maskSecret(plaintext: string): string {
  const shown = plaintext.length > 12 ? 8 : Math.max(0, Math.floor(plaintext.length / 3));
  return `${plaintext.slice(0, shown)}${maskEllipsis}`;
}
