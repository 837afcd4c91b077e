// The one place where a wire field's raw type is declared. Every schema in shared/ builds its fields from
// these, so no text, id or date that Postgres would refuse (and answer with a 500) passes validation.
// Built on zod/mini so the sign-in screen stays small; classic schemas take them as they are
// (wrap with z.optional(...) / z.nullish(...) instead of chaining).
import { z } from "zod/mini";

/** Maximum lengths, in characters. Postgres' own limits are far larger; these are what a board needs. */
export const limits = {
  /** A person's first or last name, an industry, a stage, a category. */
  name: 100,
  /** A company, meeting, resolution or document title; a location. */
  title: 200,
  /** Descriptions, agendas, invitation messages and other free text. */
  text: 10_000,
  /** Usernames as chosen at registration. */
  username: 50,
  /** What sign-in accepts as a username: a username or an e-mail address. */
  login: 256,
  /** argon2 over a longer password is work an attacker could make us do. */
  password: 256,
  email: 254,
  url: 2048,
} as const;

/** Postgres' `integer`: every id column. */
export const maxId = 2_147_483_647;

// C0 controls but tab, newline and carriage return; DEL too. NUL alone would make Postgres refuse the row.
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const controlCharacterMessage = "Must not contain control characters";
export const singleLineMessage = "Must be a single line";

/** True when a string holds a character no text field accepts. */
export function hasControlCharacters(value: string): boolean {
  return controlCharacters.test(value);
}

const noControlCharacters = z.refine<string>((value) => !hasControlCharacters(value), controlCharacterMessage);
// A title or a place is one line: a line break in one would break the text it is written into (a numbered agenda).
const noLineBreaks = z.refine<string>((value) => !/[\t\n\r]/.test(value), singleLineMessage);

export interface TextOptions {
  max: number;
  /** At least this many characters after trimming (default 0). */
  min?: number;
  /** Shown for a missing value and for one shorter than `min`. */
  requiredMessage?: string;
  maxMessage?: string;
  /** Passwords keep their spaces (default true). */
  trim?: boolean;
  /** Refuses tabs and line breaks (titles, places); default false. */
  singleLine?: boolean;
}

/** A text field: trimmed, bounded, without control characters (and, when single-line, without tabs or line breaks). */
export function text(options: TextOptions) {
  const { max, min = 0, requiredMessage, maxMessage = `At most ${max} characters`, trim = true, singleLine = false } = options;
  const checks = [
    ...(trim ? [z.trim()] : []),
    ...(min > 0 ? [z.minLength(min, requiredMessage)] : []),
    z.maxLength(max, maxMessage),
    noControlCharacters,
    ...(singleLine ? [noLineBreaks] : []),
  ];
  return z.string(requiredMessage ? { error: requiredMessage } : undefined).check(...checks);
}

/** A required single-line name (first name, industry, ...): at least one character. */
export const requiredText = (requiredMessage: string, max: number = limits.name) => text({ max, min: 1, requiredMessage });

/** A password as typed: not trimmed, bounded so hashing it stays cheap. */
export function password(minMessage: string, min = 6) {
  return text({ max: limits.password, min, requiredMessage: minMessage, maxMessage: `At most ${limits.password} characters`, trim: false });
}

/** An e-mail address, trimmed. */
export function email(message: string) {
  return z.string({ error: message }).check(z.trim(), z.maxLength(limits.email, message), z.email(message), noControlCharacters);
}

function isWebUrl(value: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return protocols.includes(url.protocol) && url.hostname.includes(".") && !/\s/.test(value);
  } catch {
    return false;
  }
}

/** True for an absolute http(s) address (or only the given protocols) with a dotted host name. */
export function isHttpUrl(value: string, protocols: readonly string[] = ["http:", "https:"]): boolean {
  return value.length <= limits.url && !hasControlCharacters(value) && isWebUrl(value, protocols);
}

/** A web address, or the empty string (a cleared field). */
export function optionalHttpUrl(message: string) {
  return z.string().check(
    z.trim(),
    z.maxLength(limits.url, message),
    z.refine((value) => value === "" || isHttpUrl(value), message),
  );
}

/** True for a whole number that can be a row id (1 to Postgres' integer maximum). */
export function isId(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= maxId;
}

/** An id given as a number or a string of digits; anything else, or beyond Postgres' integer range, fails. */
export function parseId(value: unknown): number | null {
  if (typeof value === "string" && /^\d{1,10}$/.test(value.trim())) {
    const id = Number(value.trim());
    return isId(id) ? id : null;
  }
  return isId(value) ? value : null;
}

/** An id field, as a number or a string of digits; answers the number. */
export function id(message = "Must be a valid id") {
  return z.pipe(
    z.union([z.number({ error: message }), z.string({ error: message })], { error: message }),
    z.transform((value, context) => {
      const parsed = parseId(value);
      if (parsed === null) {
        context.issues.push({ code: "custom", message, input: value });
        return z.NEVER;
      }
      return parsed;
    }),
  );
}

/** A whole number within bounds (durations, counts). */
export function integer(options: { min: number; max: number; message?: string }) {
  const { min, max, message = `Must be a whole number from ${min} to ${max}` } = options;
  return z.number({ error: message }).check(z.int(message), z.gte(min, message), z.lte(max, message));
}

/** The years every date must fall in: Postgres' timestamps go further, but no board meets outside these. */
export const earliestYear = 1900;
export const latestYear = 9999;

/** True for a valid date whose year is in 1900–9999. */
export function isStorableDate(date: Date): boolean {
  const time = date.getTime();
  if (Number.isNaN(time)) return false;
  const year = date.getUTCFullYear();
  return year >= earliestYear && year <= latestYear;
}

/**
 * An ISO 8601 date and time with an offset ("2026-05-01T10:00:00Z"), answered as a Date; refused outside
 * the years 1900–9999. A value the server derives from it (an end two hours later) must be checked too.
 */
export function isoTimestamp(message: string) {
  return z.pipe(
    z.iso.datetime({ offset: true, error: message }),
    z.transform((value, context) => {
      const date = new Date(value);
      if (!isStorableDate(date)) {
        context.issues.push({ code: "custom", message: `${message} between ${earliestYear} and ${latestYear}`, input: value });
        return z.NEVER;
      }
      return date;
    }),
  );
}

/** A calendar date as a form's date input gives it ("2026-05-01"), in years 1900–9999. */
export function dateInput(message: string) {
  return z.string({ error: message }).check(z.refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && isCalendarDate(value), message));
}

/** "2026-02-30" would roll over to 2 March in JavaScript, and Postgres refuses it: only a day the month has passes. */
function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T12:00:00Z`);
  return isStorableDate(date) && date.toISOString().startsWith(value);
}

/** A time of day as a form's time input gives it ("14:30"). */
export function timeInput(message: string) {
  return z.string({ error: message }).check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, message));
}

/** A field the server ignores (its value is derived): accepted when small, never stored. */
export const ignored = z.optional(z.union([z.number(), z.string().check(z.maxLength(100)), z.null()]));

/** An opaque token the server issued (a challenge, a cursor): letters, digits, `-` and `_` only, bounded. */
export function token(message: string, max = 200) {
  return z.string({ error: message }).check(z.minLength(1, message), z.maxLength(max, message), z.regex(/^[\w-]+$/, message));
}

/** A whole number given in a query string ("50") or as a number, within bounds. */
export function queryInteger(options: { min: number; max: number; message: string }) {
  const { min, max, message } = options;
  return z.pipe(
    z.union([z.number({ error: message }), z.string({ error: message }).check(z.regex(/^\d{1,6}$/, message))], { error: message }),
    z.pipe(z.transform(Number), integer({ min, max, message })),
  );
}

/**
 * A browser's answer to a WebAuthn ceremony, in the JSON form of the WebAuthn libraries: bounded ids and an
 * object of base64url strings (the server's WebAuthn library checks the rest, and refuses anything it cannot read).
 */
export function webauthnResponse(message: string) {
  const part = z.string({ error: message }).check(z.maxLength(16_384, message));
  return z.looseObject({
    id: z.string({ error: message }).check(z.minLength(1, message), z.maxLength(1024, message)),
    rawId: z.string({ error: message }).check(z.minLength(1, message), z.maxLength(1024, message)),
    type: z.literal("public-key", { error: message }),
    // Strings (base64url), a list of transports, and the key's COSE algorithm, a number.
    response: z.record(z.string().check(z.maxLength(64)), z.union([part, z.number(), z.array(part).check(z.maxLength(16))]), {
      error: message,
    }),
  });
}
