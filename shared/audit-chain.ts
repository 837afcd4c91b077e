// The audit trail's hash chain, as anyone can check it: the canonical encoding of an event, its hash, and the
// verification of a chain in order. The server's database computes the same hash when it appends an event
// (the function audit_event_hash of migration 0006); the server's verify route, the offline `npm run audit`
// script and the tests use this module. Web Crypto's SHA-256 runs the same in Node and in a browser.

/** The `prevHash` of a chain's first event. */
export const genesisHash = "0".repeat(64);

/** An audit event as exported and verified: `hash` is the SHA-256 of the canonical JSON of the rest. */
export interface ChainedAuditEvent {
  seq: number;
  /** ISO 8601, UTC, with milliseconds. */
  at: string;
  actorId: number | null;
  companyId: number | null;
  action: string;
  targetType: string;
  targetId: string | null;
  details: unknown;
  prevHash: string;
  hash: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * JSON with the keys of every object sorted (by UTF-16 code unit, which for the ASCII keys of the trail is the
 * byte order the database sorts by), no spaces, and JSON.stringify's escaping of strings.
 */
export function canonicalJson(value: unknown): string {
  if (typeof value === "number") return plainNumber(JSON.stringify(value));
  if (value === null || typeof value !== "object") return JSON.stringify(value as Json) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
}

/**
 * A number as the database writes it back: JavaScript writes 1e-7 and 1e+21 with an exponent, the database's
 * jsonb keeps such a number as a plain decimal (0.0000001, 1000000000000000000000), so the exponent is expanded.
 */
function plainNumber(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = "", exponent] = match;
  const digits = `${whole}${fraction}`;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The hash an event must carry: SHA-256 (hex) of the canonical JSON of the event without `hash`. */
export function auditEventHash(event: Omit<ChainedAuditEvent, "hash">): Promise<string> {
  const { seq, at, actorId, companyId, action, targetType, targetId, details, prevHash } = event;
  return sha256Hex(canonicalJson({ seq, at, actorId, companyId, action, targetType, targetId, details: details ?? null, prevHash }));
}

/** The last line of an export whose server could not read the whole chain: the events before it are all it holds. */
export interface IncompleteExportTrailer {
  incomplete: true;
  /** Events in the file. */
  count: number;
  /** Events the chain had when the export began, and the head they end at. */
  expectedCount: number;
  expectedHeadHash: string;
}

export type ChainVerdict = { ok: true; count: number; headHash: string } | { ok: false; count: number; brokenAt: { seq: number } };

/**
 * Checks a chain read in `seq` order: each event's `seq` follows the last, its `prevHash` is the last event's
 * hash, and its `hash` is what its content gives. The first event that fails is the broken link; `count` is
 * how many held before it. `expectedHead`, when given (the export's trailer, the database's chain head), must
 * be where the chain ends, or the link after the last event is reported broken (events cut off the end).
 */
export class ChainVerifier {
  private count = 0;
  private head = genesisHash;
  private broken: number | null = null;

  /** Adds the next event; answers false once the chain is broken (further events are not read). */
  async add(event: ChainedAuditEvent): Promise<boolean> {
    if (this.broken !== null) return false;
    const expectedSeq = this.count + 1;
    if (event.seq !== expectedSeq || event.prevHash !== this.head || (await auditEventHash(event)) !== event.hash) {
      this.broken = expectedSeq;
      return false;
    }
    this.count = expectedSeq;
    this.head = event.hash;
    return true;
  }

  verdict(expectedHead?: { headHash: string; count: number }): ChainVerdict {
    if (this.broken !== null) return { ok: false, count: this.count, brokenAt: { seq: this.broken } };
    if (expectedHead && (expectedHead.count !== this.count || expectedHead.headHash !== this.head)) {
      return { ok: false, count: this.count, brokenAt: { seq: this.count + 1 } };
    }
    return { ok: true, count: this.count, headHash: this.head };
  }
}
