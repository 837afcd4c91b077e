// npm run audit -- verify <file.jsonl>: checks an exported audit trail on this machine, with no database and no
// server. The file is read line by line (an export of any length fits): each event's seq must follow the last,
// its prevHash must be the last event's hash and its hash what its content gives; the trailer line must name
// the hash and count the events end at. Exit 0: the chain holds; 1: it is broken (the first broken event is
// named) or truncated (the server could not finish the export: its last line says {"incomplete": true, …});
// 2: usage, or a file that cannot be read.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { ChainVerifier, type ChainedAuditEvent, type IncompleteExportTrailer } from "../../shared/audit-chain";

const usage = "Usage: npm run audit -- verify <file.jsonl>";

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

/** Verifies the export at `path`; prints the verdict and answers the exit code. */
async function verifyFile(path: string): Promise<number> {
  const input = createReadStream(path, { encoding: "utf8" });
  const opened = new Promise<void>((resolveOpen, rejectOpen) => {
    input.once("open", () => resolveOpen());
    input.once("error", rejectOpen);
  });
  try {
    await opened;
  } catch (error) {
    console.error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }

  const verifier = new ChainVerifier();
  const broken = (reason: string) => {
    const verdict = verifier.verdict();
    const seq = verdict.ok ? verdict.count + 1 : verdict.brokenAt.seq;
    console.log(`broken at seq ${seq}: ${reason} (${verdict.count} events hold before it)`);
    return 1;
  };
  // The last line is the trailer: each line is checked as an event once the next one shows it was not the last.
  let held: { text: string; number: number } | null = null;
  let lineNumber = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
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
  } catch (error) {
    console.error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }

  const trailer = held ? parse(held.text) : undefined;
  if (isIncompleteTrailer(trailer)) {
    const verdict = verifier.verdict();
    const of = typeof trailer.expectedCount === "number" ? ` of ${trailer.expectedCount}` : "";
    console.log(`truncated: the server could not finish this export; it holds ${verdict.count}${of} events, which hold. Export it again.`);
    return 1;
  }
  if (!isTrailer(trailer)) return broken("the file does not end with the trailer line {headHash, count}");
  const verdict = verifier.verdict(trailer);
  if (!verdict.ok) return broken(`the events do not end at the trailer's head (${trailer.count} events, head ${trailer.headHash})`);
  console.log(`ok: ${verdict.count} events, head ${verdict.headHash}`);
  return 0;
}

async function main(): Promise<number> {
  const [command, path, ...rest] = process.argv.slice(2);
  if (command !== "verify" || !path || rest.length > 0) {
    console.error(usage);
    return 2;
  }
  return verifyFile(path);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
