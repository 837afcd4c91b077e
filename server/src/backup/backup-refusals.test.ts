import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFile, readFile, readdir, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import yauzl from "yauzl";
import yazl from "yazl";
import { createTestContext } from "../testing/test-context";
import { versionFixtures } from "../testing/version-fixtures";
import { manifestComment, type Manifest } from "./backup-file";
import { claimDataDir, controlSocketPath, DataDirInUseError } from "./data-dir-claim";
import { restoreBackup } from "./restore-backup";
import { takeBackup } from "./take-backup";

// What backup and restore refuse: a DATA_DIR another process holds, a backup file that exists, and a damaged backup
// (restored into nothing: no DATA_DIR and nothing beside it). The backups here are of a stopped DATA_DIR.

// Made when the tests run (not on Postgres, where they are skipped); short, for the control socket's path.
const root = join(tmpdir(), `qr-${process.pid}-${randomBytes(4).toString("hex")}`);
const dataDir = join(root, "data");
const good = join(root, "good.zip");
const quiet = () => undefined;

/** What is in `root` apart from the files the tests made on purpose: a refused restore leaves nothing. */
async function leftovers(): Promise<string[]> {
  return (await readdir(root)).filter((name) => name !== "data" && !name.endsWith(".zip"));
}

async function refusedRestore(file: string): Promise<string> {
  const target = join(root, "restored");
  const error = await restoreBackup({ dataDir: target, file, print: quiet }).then(
    () => null,
    (failure: Error) => failure,
  );
  expect(error, "the restore was refused").not.toBeNull();
  expect(await leftovers()).toEqual([]);
  return error!.message;
}

/** Where an entry's data starts in the zip, and how long it is. */
async function entryData(file: string, name: string): Promise<{ start: number; length: number }> {
  const zip = await yauzl.openPromise(file, { autoClose: false });
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName !== name) continue;
      const header = await zip.readLocalFileHeaderPromise(entry);
      return { start: header.fileDataStart, length: entry.compressedSize };
    }
  } finally {
    zip.close();
  }
  throw new Error(`no ${name}`);
}

async function damaged(name: string, change: (bytes: Buffer) => Buffer | Promise<Buffer>): Promise<string> {
  const file = join(root, name);
  await writeFile(file, await change(await readFile(good)));
  return file;
}

/**
 * The good backup written again as a zip as sound as the first, with `change` applied to each entry's bytes (the
 * manifest's too, then given its new hash as the zip's comment): a backup whose damage no zip check can see.
 */
async function rewritten(name: string, change: (entry: string, bytes: Buffer) => Buffer): Promise<string> {
  const source = await yauzl.openPromise(good, { autoClose: false });
  const output = new yazl.ZipFile();
  let manifestText: Buffer = Buffer.alloc(0);
  try {
    for await (const entry of source.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await source.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      const bytes = change(entry.fileName, Buffer.concat(chunks));
      if (entry.fileName === "manifest.json") manifestText = bytes;
      output.addBuffer(bytes, entry.fileName);
    }
  } finally {
    source.close();
  }
  output.end({ forceZip64Format: false, comment: manifestComment(manifestText) });
  const chunks: Buffer[] = [];
  for await (const chunk of output.outputStream) chunks.push(chunk as Buffer);
  const file = join(root, name);
  await writeFile(file, Buffer.concat(chunks));
  return file;
}

/** The manifest's JSON, changed by `edit`. */
const editedManifest = (bytes: Buffer, edit: (manifest: Manifest) => void) => {
  const manifest = JSON.parse(bytes.toString("utf8")) as Manifest;
  edit(manifest);
  return Buffer.from(JSON.stringify(manifest));
};

describe.skipIf(process.env.QUORUM_TEST_DB === "postgres")("what backup and restore refuse", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const ctx = await createTestContext({}, { dataDir });
    try {
      const { founder } = await ctx.board("Refusals Ltd");
      await versionFixtures(ctx).upload(founder, "Budget.txt", Buffer.from("The budget\n".repeat(2000)));
      // While it runs, nothing else may claim its DATA_DIR: neither a second server nor a backup of a stopped one.
      await expect(claimDataDir(dataDir, "server")).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await ctx.close();
    }
    const manifest = await takeBackup({ dataDir, file: good, print: quiet });
    expect(manifest).toMatchObject({ source: "stopped", heldMs: null });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("takes over the socket of a process that died holding DATA_DIR", async () => {
    const holder = spawn(process.execPath, [
      "-e",
      "require('net').createServer().listen(process.argv[1], () => console.log('up'))",
      controlSocketPath(dataDir),
    ]);
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    await expect(claimDataDir(dataDir, "server")).rejects.toBeInstanceOf(DataDirInUseError);
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    expect(await readdir(dataDir)).toContain("control.sock");
    const claim = await claimDataDir(dataDir, "server");
    await claim.close();
    expect(await readdir(dataDir)).not.toContain("control.sock");
  });

  it("refuses to write over a file, and names it", async () => {
    await expect(takeBackup({ dataDir, file: good, print: quiet })).rejects.toThrow(`${good} exists`);
  });

  it("refuses what is not a zip, and a backup cut short", async () => {
    expect(await refusedRestore(await damaged("text.zip", () => Buffer.from("not a backup")))).toMatch(/text\.zip is not a whole zip file/);
    const cut = await damaged("cut.zip", (bytes) => bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(await refusedRestore(cut)).toMatch(/cut\.zip is not a whole zip file .*: a backup cut short/);
  });

  it("refuses a file whose bytes differ from the manifest's hash, naming the file", async () => {
    const { start, length } = await entryData(good, "db/PG_VERSION");
    const flipped = await damaged("flipped.zip", (bytes) => {
      bytes[start + Math.floor(length / 2)]! ^= 0x01;
      return bytes;
    });
    expect(await refusedRestore(flipped)).toMatch(/db\/PG_VERSION in .*flipped\.zip (is damaged|cannot be read whole)/);
  });

  it("refuses a file whose bytes are not those the manifest hashed, in a zip sound in every other way", async () => {
    const changed = await rewritten("changed.zip", (entry, bytes) => (entry === "db/PG_VERSION" ? Buffer.from("15\n") : bytes));
    expect(await refusedRestore(changed)).toMatch(
      /db\/PG_VERSION in .*changed\.zip is damaged: its SHA-256 is [0-9a-f]{64}, the manifest's/,
    );
  });

  it("refuses a database that does not hold what the manifest says: a table's rows, an audit chain's head", async () => {
    const rows = await rewritten("rows.zip", (entry, bytes) =>
      entry === "manifest.json"
        ? editedManifest(bytes, (manifest) => {
            manifest.tables.find((table) => table.name === "public.users")!.rows += 1;
          })
        : bytes,
    );
    expect(await refusedRestore(rows)).toMatch(/is not the one backed up: table public\.users has 1 rows, not 2/);
    const head = await rewritten("head.zip", (entry, bytes) =>
      entry === "manifest.json"
        ? editedManifest(bytes, (manifest) => {
            manifest.auditHeads[0]!.seq += 1;
          })
        : bytes,
    );
    expect(await refusedRestore(head)).toMatch(/is not the one backed up: audit chain \d+ ends at \d+ [0-9a-f]+, not \d+/);
  });

  it("refuses a damaged manifest, and a zip without one", async () => {
    const { start, length } = await entryData(good, "manifest.json");
    const flipped = await damaged("manifest.zip", (bytes) => {
      bytes[start + Math.floor(length / 2)]! ^= 0x01;
      return bytes;
    });
    expect(await refusedRestore(flipped)).toMatch(/manifest\.json in .*manifest\.zip (is damaged|cannot be read whole)/);

    const bare = new yazl.ZipFile();
    bare.addBuffer(Buffer.from("16\n"), "db/PG_VERSION");
    bare.end();
    const chunks: Buffer[] = [];
    for await (const chunk of bare.outputStream) chunks.push(chunk as Buffer);
    const noManifest = join(root, "bare.zip");
    await writeFile(noManifest, Buffer.concat(chunks));
    expect(await refusedRestore(noManifest)).toMatch(/bare\.zip has no manifest\.json/);
  });

  it("refuses a file cut short at its end, even when the rest reads", async () => {
    const copy = join(root, "short.zip");
    await copyFile(good, copy);
    await truncate(copy, (await readFile(good)).length - 10);
    expect(await refusedRestore(copy)).toMatch(/short\.zip is not a whole zip file/);
  });

  it("with DATABASE_URL, points to pg_dump and does not touch the database", async () => {
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "scripts/ops/backup.ts", join(root, "pg.zip")],
        { env: { PATH: process.env.PATH ?? "", DATABASE_URL: "postgres://quorum:hunter2@127.0.0.1:1/quorum" } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pg_dump --format=custom --file=quorum.dump "$DATABASE_URL"');
    expect(result.stderr).not.toContain("hunter2");
  });
});
