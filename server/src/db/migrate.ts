import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { DatabaseHandle } from "./client";

/** Finds the committed migrations folder from the source tree or from the built bundle. */
export function findMigrationsFolder(start = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, "migrations");
    if (existsSync(join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("Could not find the migrations folder");
    dir = parent;
  }
}

/**
 * Whether the database already has the folder's newest migration. The migrator records each migration it applies
 * with the journal's `when` as its `created_at`, and applies only those newer than the newest it recorded: so one
 * read tells that it would apply none. Any failure (a fresh database has no table to read) leaves it to the migrator.
 */
async function hasNewestMigration(handle: Pick<DatabaseHandle, "db">, migrationsFolder: string): Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  try {
    const result = (await handle.db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`)) as unknown as {
      rows: { newest: string | number | bigint | null }[];
    };
    const applied = result.rows[0]?.newest;
    return applied != null && Number(applied) >= newest;
  } catch {
    return false;
  }
}

/**
 * Brings the database to the folder's newest migration. A database already there costs one query: the migrator's
 * own check takes five statements and an empty transaction, which every start of the server paid.
 */
export async function runMigrations(handle: Pick<DatabaseHandle, "db" | "kind">): Promise<void> {
  const migrationsFolder = findMigrationsFolder();
  if (await hasNewestMigration(handle, migrationsFolder)) return;
  if (handle.kind === "postgres") {
    await migratePg(handle.db as never, { migrationsFolder });
  } else {
    await migratePglite(handle.db as never, { migrationsFolder });
  }
}
