// A page's cursor: where the next page starts (rank, kind, id), signed for the search that gave it, so a cursor that
// was edited, made up, or given for another search (other words, filters or caller) is refused, never read as a place.
import { timingSafeEqual } from "node:crypto";
import { parseId } from "../../../../shared/input";
import { searchKinds } from "../../../../shared/search";
import { badRequest } from "../../http/errors";
import { hmacFor } from "../../integrations/secrets";
import type { SearchPosition } from "./search-sql";

export const badSearchCursorMessage = "The cursor is not one this search gave";

/** 16 bytes of HMAC, base64url. */
const signatureLength = 22;
/** A rank as Postgres writes a real: digits, a point, an exponent. */
const rankPattern = /^\d+(\.\d+)?(e[+-]?\d+)?$/;

function signatureOf(payload: string, search: string, appSecret: string): string {
  return hmacFor("search cursor", appSecret, `${search}\0${payload}`).subarray(0, 16).toString("base64url");
}

export function writeCursor(position: SearchPosition, search: string, appSecret: string): string {
  const payload = Buffer.from(JSON.stringify([position.rank, position.kindOrder, position.id])).toString("base64url");
  return `${payload}${signatureOf(payload, search, appSecret)}`;
}

/** The position a cursor of this search stands for; 400 for anything else. */
export function readCursor(cursor: string, search: string, appSecret: string): SearchPosition {
  const payload = cursor.slice(0, -signatureLength);
  const given = Buffer.from(cursor.slice(-signatureLength));
  const expected = Buffer.from(signatureOf(payload, search, appSecret));
  if (cursor.length <= signatureLength || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw badRequest(badSearchCursorMessage);
  }
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw badRequest(badSearchCursorMessage);
  }
  // Signed by this server, so well formed; checked all the same before any of it reaches the statement.
  if (!Array.isArray(fields) || fields.length !== 3) throw badRequest(badSearchCursorMessage);
  const [rank, kindOrder, id] = fields as unknown[];
  const validId = parseId(id);
  if (typeof rank !== "string" || !rankPattern.test(rank) || typeof kindOrder !== "number" || validId === null) {
    throw badRequest(badSearchCursorMessage);
  }
  if (!Number.isInteger(kindOrder) || kindOrder < 0 || kindOrder >= searchKinds.length) throw badRequest(badSearchCursorMessage);
  return { rank, kindOrder, id: validId };
}
