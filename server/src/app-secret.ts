import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * APP_SECRET keys the encryption of stored service keys. With the embedded database it may be
 * generated once and kept beside the data; with a shared Postgres every instance must be given the same one.
 */
export function resolveAppSecret(options: { appSecret?: string; databaseUrl?: string; dataDir: string }): string {
  if (options.appSecret) return options.appSecret;
  if (options.databaseUrl) {
    throw new Error(
      "APP_SECRET is not set. With DATABASE_URL every instance needs the same secret: set APP_SECRET to at least 32 random characters (for example: openssl rand -base64 48).",
    );
  }
  if (options.dataDir.startsWith("memory://")) return randomBytes(32).toString("base64url");
  const file = join(options.dataDir, "secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(options.dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
