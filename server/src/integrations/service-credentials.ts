import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { platformServices } from "../db/schema";
import { decryptSecret, encryptSecret } from "./secrets";

export interface ServiceCredentials {
  serviceName: string;
  key: string;
  url: string | null;
}

/**
 * A URL column value that is a secret (the messaging service's auth token) is stored encrypted
 * under this prefix; plain URLs are stored as they are.
 */
const encryptedUrlPrefix = "enc:";

export function encryptServiceUrl(url: string, appSecret: string): string {
  return `${encryptedUrlPrefix}${encryptSecret(url, appSecret)}`;
}

export function isEncryptedServiceUrl(stored: string | null | undefined): boolean {
  return stored != null && stored.startsWith(encryptedUrlPrefix);
}

/** The stored URL in plain text (decrypting a secret one); throws SecretDecryptionError under a wrong APP_SECRET. */
function readServiceUrl(stored: string | null, appSecret: string): string | null {
  if (stored == null || !isEncryptedServiceUrl(stored)) return stored;
  return decryptSecret(stored.slice(encryptedUrlPrefix.length), appSecret);
}

/** The decrypted key and URL of the enabled platform service with this name (case-insensitive), for server-side use only. */
export function findEnabledServiceCredentials(db: Database, appSecret: string, serviceName: string): Promise<ServiceCredentials | null> {
  return readServiceCredentials(db, appSecret, serviceName, { enabledOnly: true });
}

/**
 * The decrypted key and URL of the platform service with this name, enabled or not: files written to a
 * storage service stay readable after it is switched off.
 */
export function findServiceCredentials(db: Database, appSecret: string, serviceName: string): Promise<ServiceCredentials | null> {
  return readServiceCredentials(db, appSecret, serviceName, { enabledOnly: false });
}

async function readServiceCredentials(
  db: Database,
  appSecret: string,
  serviceName: string,
  { enabledOnly }: { enabledOnly: boolean },
): Promise<ServiceCredentials | null> {
  const named = sql`lower(${platformServices.serviceName}) = ${serviceName.toLowerCase()}`;
  const [row] = await db
    .select({
      serviceName: platformServices.serviceName,
      encrypted: platformServices.serviceKeyEncrypted,
      url: platformServices.serviceUrl,
    })
    .from(platformServices)
    .where(enabledOnly ? and(named, eq(platformServices.isEnabled, true)) : named)
    .limit(1);
  if (!row) return null;
  return { serviceName: row.serviceName, key: decryptSecret(row.encrypted, appSecret), url: readServiceUrl(row.url, appSecret) };
}
