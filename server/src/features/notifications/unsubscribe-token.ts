import { timingSafeEqual } from "node:crypto";
import { hmacFor } from "../../integrations/secrets";
import { preferenceKeys, type PreferenceKey } from "../../../../shared/preferences";

/**
 * An unsubscribe link's token: which user turns which switch off, signed with a key derived from APP_SECRET
 * (HMAC-SHA256), so nobody can forge one for someone else and the link needs no sign-in. It does not expire:
 * an old e-mail's link keeps working.
 */
function signature(payload: string, appSecret: string): string {
  return hmacFor("unsubscribe", appSecret, payload).toString("base64url");
}

export function signUnsubscribeToken(userId: number, key: PreferenceKey, appSecret: string): string {
  const payload = `${userId}.${key}`;
  return `${Buffer.from(payload).toString("base64url")}.${signature(payload, appSecret)}`;
}

/** The user and switch of a genuine token; null for anything else. */
export function verifyUnsubscribeToken(token: string, appSecret: string): { userId: number; key: PreferenceKey } | null {
  const match = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const payload = Buffer.from(match[1]!, "base64url").toString("utf8");
  const expected = Buffer.from(signature(payload, appSecret));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const parts = /^(\d{1,10})\.([A-Za-z]+)$/.exec(payload);
  if (!parts) return null;
  const userId = Number(parts[1]);
  const key = parts[2] as PreferenceKey;
  if (!Number.isSafeInteger(userId) || userId < 1 || userId > 2_147_483_647 || !preferenceKeys.includes(key)) return null;
  return { userId, key };
}
