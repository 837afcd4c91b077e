import { timingSafeEqual } from "node:crypto";
import { hmacFor } from "../../integrations/secrets";

/**
 * A calendar feed's secret: an HMAC-SHA256 of (user, company, the user's feed version) under a key derived
 * from APP_SECRET. Nothing secret is stored: the server recomputes it to check a feed URL, and bumping the
 * version (rotation) changes every secret the user was given, so each old URL stops working.
 */
export function calendarFeedSecret(feed: { userId: number; companyId: number; version: number }, appSecret: string): string {
  return hmacFor("calendar feed", appSecret, `${feed.userId}.${feed.companyId}.${feed.version}`).toString("base64url");
}

/** The shape of a secret: 43 base64url characters (256 bits). */
export const feedSecretPattern = /^[A-Za-z0-9_-]{43}$/;

/** True when `given` is the secret of this user, company and version (compared in constant time). */
export function isCalendarFeedSecret(
  given: string,
  feed: { userId: number; companyId: number; version: number },
  appSecret: string,
): boolean {
  if (!feedSecretPattern.test(given)) return false;
  const expected = Buffer.from(calendarFeedSecret(feed, appSecret));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
