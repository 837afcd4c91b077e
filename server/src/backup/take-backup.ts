import { existsSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { embeddedDatabaseDir, openDatabase } from "../db/client";
import { writeBackupFile, measureFile, backupFormatVersion, type Manifest } from "./backup-file";
import { describeBackup, formatBytes, quorumVersion } from "./backup-summary";
import { copyAtOneInstant, listTreeSync, type CopyOutcome } from "./consistent-copy";
import { claimDataDir, requestSnapshot, stagingPrefix } from "./data-dir-claim";
import { brokenAuditChains, takeInventory } from "./inventory";

/** A copy of DATA_DIR's database as it stood at one instant: from the server running on it, or taken here when none runs. */
async function copyDatabase(
  dataDir: string,
): Promise<{ staged: string; copy: CopyOutcome; checkpointMs: number | null; source: Manifest["source"] }> {
  const answer = await requestSnapshot(dataDir);
  if (answer && !answer.ok) throw new Error(`The running server could not copy its database: ${answer.message}`);
  if (answer) return { ...answer, source: "running server" };
  // No server runs: this process claims DATA_DIR while it copies, so none starts meanwhile.
  const claim = await claimDataDir(dataDir, "backup");
  try {
    const staged = await mkdtemp(join(dataDir, stagingPrefix));
    const copy = await copyAtOneInstant(embeddedDatabaseDir(dataDir), join(staged, "db"), async (work) => work());
    return { staged, copy, checkpointMs: null, source: "stopped" };
  } finally {
    await claim.close();
  }
}

/**
 * `npm run backup -- <file>`: a copy of the embedded database (taken while Quorum runs, without stopping it) and of
 * DATA_DIR/secret, checked and described in its manifest (see backup-file.ts). Prints what it copied.
 */
export async function takeBackup(options: { dataDir: string; file: string; print: (line: string) => void }): Promise<Manifest> {
  const dataDir = resolve(options.dataDir);
  const file = resolve(options.file);
  const { print } = options;
  if (existsSync(file)) throw new Error(`${file} exists: name a new file for the backup`);
  if (!existsSync(embeddedDatabaseDir(dataDir))) throw new Error(`${dataDir} holds no embedded database (no db/ in it)`);

  const { staged, copy, checkpointMs, source } = await copyDatabase(dataDir);
  try {
    print(
      source === "running server"
        ? `Copied the database of the running server at ${dataDir}: it was held still for ${copy.heldMs.toFixed(1)} ms, to copy ${copy.heldFiles} files (${formatBytes(copy.heldBytes)}) of ${copy.files} (${formatBytes(copy.bytes)}); its checkpoint before the copy took ${checkpointMs!.toFixed(1)} ms.`
        : `Copied the database at ${dataDir} (no server was running): ${copy.files} files (${formatBytes(copy.bytes)}).`,
    );
    // Opening the copy recovers it to its instant (as after a crash), and leaves it closed cleanly.
    const database = await openDatabase({ dataDir: join(staged, "db") });
    let inventory;
    let broken;
    try {
      inventory = await takeInventory(database.db);
      broken = new Set((await brokenAuditChains(database.db, inventory.auditHeads)).map((chain) => chain.chainKey));
    } finally {
      await database.close();
    }

    const sources = new Map<string, string>();
    const { directories, files } = listTreeSync(join(staged, "db"));
    for (const path of files) sources.set(`db/${path}`, join(staged, "db", path));
    if (existsSync(join(dataDir, "secret"))) sources.set("secret", join(dataDir, "secret"));
    const measured = [];
    for (const [path, from] of sources) measured.push({ path, ...(await measureFile(from)) });
    const manifest: Manifest = {
      format: "quorum-backup",
      formatVersion: backupFormatVersion,
      createdAt: new Date().toISOString(),
      quorumVersion: quorumVersion(),
      source,
      heldMs: source === "running server" ? Math.round(copy.heldMs * 10) / 10 : null,
      newestMigration: inventory.newestMigration,
      directories: ["db", ...directories.map((path) => `db/${path}`)],
      files: measured,
      tables: inventory.tables,
      auditHeads: inventory.auditHeads.map((head) => ({ ...head, verified: !broken.has(head.chainKey) })),
    };
    await writeBackupFile(file, manifest, sources);

    describeBackup(manifest, print);
    for (const chainKey of broken)
      print(`WARNING: audit chain ${chainKey} does not verify in this database; the backup keeps it as it is.`);
    print(`Written ${file} (${formatBytes((await stat(file)).size)}). It holds the secret: keep it as safe as the server.`);
    return manifest;
  } finally {
    await rm(staged, { recursive: true, force: true });
  }
}
