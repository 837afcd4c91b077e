// npm run audit -- verify <file.jsonl>: checks an exported audit trail on this machine, with no database and no
// server (scripts/ops/audit-export-check.ts says how). Exit 0: the chain holds; 1: it is broken (the first broken
// event is named) or truncated (the server could not finish the export: its last line says {"incomplete": true, …});
// 2: usage, or a file that cannot be read.
//
// npm run audit -- verify-archive <file.zip>: checks a board's archive the same way (scripts/ops/verify-archive.ts):
// every file against its manifest, the audit trail inside, and every certificate. Exit codes as for verify.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { checkExportLines } from "./audit-export-check";
import { verifyArchive } from "./verify-archive";

const usage = "Usage: npm run audit -- verify <file.jsonl>\n       npm run audit -- verify-archive <file.zip>";

/** Verifies the export at `path`; prints the verdict and answers the exit code. */
async function verifyFile(path: string): Promise<number> {
  const input = createReadStream(path, { encoding: "utf8" });
  const opened = new Promise<void>((resolveOpen, rejectOpen) => {
    input.once("open", () => resolveOpen());
    input.once("error", rejectOpen);
  });
  try {
    await opened;
    const verdict = await checkExportLines(createInterface({ input, crlfDelay: Infinity }));
    console.log(verdict.message);
    return verdict.ok ? 0 : 1;
  } catch (error) {
    console.error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

async function main(): Promise<number> {
  const [command, path, ...rest] = process.argv.slice(2);
  if (!path || rest.length > 0 || (command !== "verify" && command !== "verify-archive")) {
    console.error(usage);
    return 2;
  }
  if (command === "verify") return verifyFile(path);
  const verdict = await verifyArchive(path);
  for (const line of verdict.lines) (verdict.code === 2 ? console.error : console.log)(line);
  return verdict.code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);
