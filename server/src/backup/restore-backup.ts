import { readFileSync, statSync } from "node:fs";
import { mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { embeddedDatabaseDir, openDatabase } from "../db/client";
import { findMigrationsFolder, runMigrations } from "../db/migrate";
import { BadBackupError, extractBackup, type Manifest } from "./backup-file";
import { describeBackup } from "./backup-summary";
import { brokenAuditChains, inventoryDifferences, takeInventory } from "./inventory";

/** The `when` of the newest migration this Quorum has. */
function newestKnownMigration(): number {
  const journal = JSON.parse(readFileSync(join(findMigrationsFolder(), "meta", "_journal.json"), "utf8")) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/** Refuses a DATA_DIR that holds anything (naming it); answers whether it exists (empty). */
async function emptyOrAbsent(dataDir: string): Promise<boolean> {
  let names: string[];
  try {
    if (!statSync(dataDir).isDirectory()) throw new Error(`${dataDir} is not a directory: nothing was changed`);
    names = await readdir(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  if (names.length > 0) {
    const shown = names.slice(0, 5).join(", ") + (names.length > 5 ? ", …" : "");
    throw new Error(
      `${dataDir} is not empty (it holds ${shown}): a backup is restored only into an empty or absent DATA_DIR. Nothing was changed.`,
    );
  }
  return true;
}

/**
 * Opens the restored database, holds what it holds against the manifest (every table's rows and hash, every audit
 * chain's head, each chain verified again if it verified when backed up), then brings it to this Quorum's migrations.
 */
async function checkRestoredDatabase(databaseDir: string, manifest: Manifest, file: string): Promise<{ migrated: boolean }> {
  const database = await openDatabase({ dataDir: databaseDir });
  try {
    const found = await takeInventory(database.db);
    const differences = inventoryDifferences(manifest, found);
    if (differences.length > 0)
      throw new BadBackupError(`The database restored from ${file} is not the one backed up: ${differences.join("; ")}`);
    const broken = await brokenAuditChains(database.db, found.auditHeads);
    const newlyBroken = broken.filter(({ chainKey }) => manifest.auditHeads.find((head) => head.chainKey === chainKey)?.verified);
    if (newlyBroken.length > 0) {
      throw new BadBackupError(
        `Audit chains ${newlyBroken.map(({ chainKey }) => chainKey).join(", ")} verified when backed up and do not now`,
      );
    }
    await runMigrations(database);
    return { migrated: found.newestMigration < newestKnownMigration() };
  } finally {
    await database.close();
  }
}

/**
 * `npm run restore -- <file>`: puts a backup back into an empty (or absent) DATA_DIR. Everything is written into a
 * directory beside DATA_DIR and checked there; DATA_DIR appears (renamed into place) only once all of it held, so a
 * refused backup, for whatever reason, leaves nothing behind. Prints what it restored.
 */
export async function restoreBackup(options: { dataDir: string; file: string; print: (line: string) => void }): Promise<Manifest> {
  const dataDir = resolve(options.dataDir);
  const file = resolve(options.file);
  const { print } = options;
  await emptyOrAbsent(dataDir);
  const parent = dirname(dataDir);
  if (!statSync(parent, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${parent} does not exist: create it first`);

  const temporary = await mkdtemp(join(parent, `.${basename(dataDir)}.restore-`));
  try {
    const manifest = await extractBackup(file, temporary);
    if (manifest.newestMigration > newestKnownMigration()) {
      throw new BadBackupError(`${file} was made by a newer Quorum (${manifest.quorumVersion}): update this one before restoring it`);
    }
    const { migrated } = await checkRestoredDatabase(embeddedDatabaseDir(temporary), manifest, file);
    // DATA_DIR may have been created (empty) meanwhile: a rename replaces an empty directory, and fails on any other.
    await rename(temporary, dataDir).catch((error: NodeJS.ErrnoException) => {
      throw error.code === "ENOTEMPTY" || error.code === "EEXIST" ? new Error(`${dataDir} is no longer empty: nothing was changed`) : error;
    });
    print(
      `Restored ${file} (taken ${manifest.createdAt} from ${manifest.source === "running server" ? "a running server" : "a stopped DATA_DIR"}, Quorum ${manifest.quorumVersion}) into ${dataDir}.`,
    );
    print("Every file's SHA-256, every table's rows and every audit chain's head are those of the backup.");
    describeBackup(manifest, print);
    if (migrated) print("The database was then brought to this Quorum's newest migration.");
    return manifest;
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}
