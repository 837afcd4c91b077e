import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client";
import { runMigrations } from "../db/migrate";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated embedded database, dumped once per run: each test file starts from it instead of initdb. */
    pgliteSnapshot?: string;
    /** A migrated Postgres database each test file's database is copied from. */
    postgresTemplate?: string;
  }
}

/**
 * Makes each server test file's fresh database cheap. A new embedded database runs initdb and every migration
 * (seconds of WebAssembly per file); a copy of one migrated database costs a fraction of that. The copy is
 * made here, once per run, from the committed migrations, so it can never be stale.
 */
export default async function setup(project: TestProject) {
  if (project.name === "server-pg" && process.env.DATABASE_URL) {
    const adminUrl = process.env.DATABASE_URL;
    const template = `quorum_tpl_${process.pid}_${randomBytes(4).toString("hex")}`;
    await adminQuery(adminUrl, `create database ${template}`);
    const url = new URL(adminUrl);
    url.pathname = `/${template}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://" });
    await runMigrations(handle);
    // A template may have no open connection while it is copied.
    await handle.close();
    project.provide("postgresTemplate", template);
    return () => adminQuery(adminUrl, `drop database if exists ${template} with (force)`);
  }

  const client = await PGlite.create("memory://");
  const { drizzle } = await import("drizzle-orm/pglite");
  await runMigrations({ db: drizzle(client) as never, kind: "pglite" });
  const dump = await client.dumpDataDir("none");
  await client.close();
  const file = join(tmpdir(), `quorum-test-db-${process.pid}-${randomBytes(4).toString("hex")}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteSnapshot", file);
  return () => rm(file, { force: true });
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
