import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyAtOneInstant } from "./consistent-copy";

// The copy is what the directory held while `hold` ran its work, whatever was written to it before and during the
// passes that ran without holding it.

const root = mkdtempSync(join(tmpdir(), "qc-"));
afterAll(() => rm(root, { recursive: true, force: true }));

let run = 0;
function directories() {
  run += 1;
  const source = join(root, `source-${run}`);
  const target = join(root, `target-${run}`);
  mkdirSync(join(source, "base", "1"), { recursive: true });
  mkdirSync(join(source, "pg_wal"), { recursive: true });
  mkdirSync(target);
  return { source, target };
}

/** Every file under `directory` with its text. */
async function contents(directory: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(directory.length + 1)] = readFileSync(path, "utf8");
  }
  return files;
}

describe("copyAtOneInstant", () => {
  it("copies what changed, appeared or went just before the hold: the same size in the same instant too", async () => {
    const { source, target } = directories();
    writeFileSync(join(source, "base", "1", "100"), "rows: 1");
    writeFileSync(join(source, "base", "1", "200"), "a table dropped later");
    writeFileSync(join(source, "pg_wal", "0001"), "wal: commit 1");
    writeFileSync(join(source, "postmaster.pid"), "-42");
    let atTheInstant: Record<string, string> = {};
    const outcome = await copyAtOneInstant(source, target, async (work) => {
      // Written after the passes that ran without the hold: the same size, in the same instant as they looked.
      writeFileSync(join(source, "base", "1", "100"), "rows: 2");
      writeFileSync(join(source, "pg_wal", "0001"), "wal: commit 1, commit 2");
      writeFileSync(join(source, "base", "1", "300"), "a new table");
      rmSync(join(source, "base", "1", "200"));
      atTheInstant = await contents(source);
      work();
    });
    delete atTheInstant["postmaster.pid"];
    expect(await contents(target)).toEqual(atTheInstant);
    expect(existsSync(join(target, "postmaster.pid"))).toBe(false);
    expect(outcome).toMatchObject({ files: 3, heldFiles: 3 });
  });

  it("copies again a file rewritten, at the same size, within the tick of the clock it was copied in", async () => {
    const { source, target } = directories();
    const file = join(source, "base", "1", "100");
    // A file system whose times are whole seconds: the rewrite keeps the time the passes saw.
    const second = Math.floor(Date.now() / 1000);
    writeFileSync(file, "rows: 1");
    utimesSync(file, second, second);
    await copyAtOneInstant(source, target, async (work) => {
      writeFileSync(file, "rows: 2");
      utimesSync(file, second, second);
      work();
    });
    expect(readFileSync(join(target, "base", "1", "100"), "utf8")).toBe("rows: 2");
  });

  it("copies under the hold only what changed since the passes before it", async () => {
    const { source, target } = directories();
    for (let file = 0; file < 20; file += 1) writeFileSync(join(source, "base", "1", String(file)), `table ${file}`);
    // Set a file's time in the past: one the passes copied long after it was written is not copied again.
    const past = new Date(Date.now() - 60_000);
    for (let file = 0; file < 20; file += 1) utimesSync(join(source, "base", "1", String(file)), past, past);
    const outcome = await copyAtOneInstant(source, target, async (work) => {
      writeFileSync(join(source, "base", "1", "7"), "table 7, changed");
      work();
    });
    expect(outcome).toMatchObject({ files: 20, heldFiles: 1 });
    expect(readFileSync(join(target, "base", "1", "7"), "utf8")).toBe("table 7, changed");
  });
});
