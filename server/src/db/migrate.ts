import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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

export async function runMigrations(handle: Pick<DatabaseHandle, "db" | "kind">): Promise<void> {
  const migrationsFolder = findMigrationsFolder();
  if (handle.kind === "postgres") {
    await migratePg(handle.db as never, { migrationsFolder });
  } else {
    await migratePglite(handle.db as never, { migrationsFolder });
  }
}
