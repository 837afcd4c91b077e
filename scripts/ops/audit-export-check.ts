// The check of an exported audit trail, line by line (an export of any length fits): each event's seq must follow the
// last, its prevHash must be the last event's hash and its hash what its content gives; the trailer line must name the
// hash and count the events end at. `npm run audit -- verify` runs it on a file, `verify-archive` on an archive's
// audit.jsonl.
import { ChainVerifier, type ChainedAuditEvent, type IncompleteExportTrailer } from "../../shared/audit-chain";

export type ExportVerdict =
  { ok: true; count: number; headHash: string; message: string } | { ok: false; truncated: boolean; message: string };

/** Why a parsed line is not an exported event, or null when it has every field of one. */
function notAnEvent(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "is not an object";
  const event = value as Record<string, unknown>;
  const integer = (field: string, nullable = false) =>
    (nullable && event[field] === null) || (typeof event[field] === "number" && Number.isSafeInteger(event[field]));
  const string = (field: string, nullable = false) => (nullable && event[field] === null) || typeof event[field] === "string";
  const missing = [
    integer("seq") ? null : "seq",
    string("at") ? null : "at",
    integer("actorId", true) ? null : "actorId",
    integer("companyId", true) ? null : "companyId",
    string("action") ? null : "action",
    string("targetType") ? null : "targetType",
    string("targetId", true) ? null : "targetId",
    "details" in event ? null : "details",
    string("prevHash") ? null : "prevHash",
    string("hash") ? null : "hash",
  ].filter((field) => field !== null);
  return missing.length > 0 ? `lacks a valid ${missing.join(", ")}` : null;
}

function isTrailer(value: unknown): value is { headHash: string; count: number } {
  if (typeof value !== "object" || value === null) return false;
  const trailer = value as Record<string, unknown>;
  return typeof trailer.headHash === "string" && typeof trailer.count === "number" && Number.isSafeInteger(trailer.count);
}

function isIncompleteTrailer(value: unknown): value is IncompleteExportTrailer {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>).incomplete === true;
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** Checks an export's lines in order; a failure to read them is thrown, not judged. */
export async function checkExportLines(lines: AsyncIterable<string>): Promise<ExportVerdict> {
  const verifier = new ChainVerifier();
  const broken = (reason: string): ExportVerdict => {
    const verdict = verifier.verdict();
    const seq = verdict.ok ? verdict.count + 1 : verdict.brokenAt.seq;
    return { ok: false, truncated: false, message: `broken at seq ${seq}: ${reason} (${verdict.count} events hold before it)` };
  };
  // The last line is the trailer: each line is checked as an event once the next one shows it was not the last.
  let held: { text: string; number: number } | null = null;
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber += 1;
    if (text.trim() === "") continue;
    if (held) {
      const value = parse(held.text);
      const problem = value === undefined ? "is not JSON" : notAnEvent(value);
      if (problem) return broken(`line ${held.number} ${problem}`);
      if (!(await verifier.add(value as ChainedAuditEvent))) return broken(`its link or hash does not hold (line ${held.number})`);
    }
    held = { text, number: lineNumber };
  }

  const trailer = held ? parse(held.text) : undefined;
  if (isIncompleteTrailer(trailer)) {
    const verdict = verifier.verdict();
    const of = typeof trailer.expectedCount === "number" ? ` of ${trailer.expectedCount}` : "";
    return {
      ok: false,
      truncated: true,
      message: `truncated: the server could not finish this export; it holds ${verdict.count}${of} events, which hold. Export it again.`,
    };
  }
  if (!isTrailer(trailer)) return broken("the file does not end with the trailer line {headHash, count}");
  const verdict = verifier.verdict(trailer);
  if (!verdict.ok) return broken(`the events do not end at the trailer's head (${trailer.count} events, head ${trailer.headHash})`);
  return { ok: true, count: verdict.count, headHash: verdict.headHash, message: `ok: ${verdict.count} events, head ${verdict.headHash}` };
}
