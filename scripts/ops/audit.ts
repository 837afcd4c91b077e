// npm run audit -- verify <file.jsonl>: checks an exported audit trail on this machine, with no database and no
// server (scripts/ops/audit-export-check.ts says how). Exit 0: the chain holds; 1: it is broken (the first broken
// event is named) or truncated (the server could not finish the export: its last line says {"incomplete": true, …});
// 2: usage, or a file that cannot be read.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { checkExportLines } from "./audit-export-check";

const usage = "Usage: npm run audit -- verify <file.jsonl>";

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
