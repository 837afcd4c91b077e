import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase } from "./client";
import { findMigrationsFolder, runMigrations } from "./migrate";

/**
 * An installation made before addresses had to be proved upgrades without anyone losing a seat: its accounts count as
 * proved, its memberships stay, and its pending invitations stay pending (with 14 more days and no link yet, which a
 * resend gives them). The database is brought to the migration before, filled as it was used then, then upgraded.
 */
const lastBefore = "0009_vote_in_one_call";

function migrationsUpTo(tag: string): string {
  const folder = mkdtempSync(join(tmpdir(), "quorum-migrations-"));
  cpSync(findMigrationsFolder(), folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === tag);
  if (last < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/** The embedded database, or a fresh Postgres database when the run is the Postgres one. */
async function openEmptyDatabase() {
  const adminUrl = process.env.DATABASE_URL;
  if (process.env.QUORUM_TEST_DB !== "postgres" || !adminUrl)
    return { handle: await openDatabase({ dataDir: "memory://" }), drop: async () => {} };
  const name = `quorum_m_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://" });
  return { handle, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

const rows = async <T>(handle: Awaited<ReturnType<typeof openDatabase>>, query: ReturnType<typeof sql>) =>
  ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;

describe("upgrading an installation to proved addresses and link invitations", () => {
  it("keeps every seat, counts existing addresses as proved, and keeps pending invitations pending, to resend", async () => {
    const folder = migrationsUpTo(lastBefore);
    const { handle, drop } = await openEmptyDatabase();
    try {
      const migrate = handle.kind === "postgres" ? migratePg : migratePglite;
      await migrate(handle.db as never, { migrationsFolder: folder });
      await handle.db.execute(sql`
        insert into users (id, username, email, password_hash) values
          (1, 'ada', 'ada@example.com', 'hash'), (2, 'bob', 'Bob@Example.com', 'hash')`);
      await handle.db.execute(sql`insert into companies (id, name) values (1, 'Alpha Board Ltd')`);
      await handle.db.execute(sql`
        insert into memberships (user_id, company_id, role) values (1, 1, 'founder'), (2, 1, 'member')`);
      await handle.db.execute(sql`
        insert into invitations (company_id, email, role, invited_by) values (1, 'cfo@example.com', 'admin', 1)`);

      await runMigrations(handle);

      expect(await rows(handle, sql`select id, email, email_verified, password_set from users order by id`)).toEqual([
        { id: 1, email: "ada@example.com", email_verified: true, password_set: true },
        { id: 2, email: "Bob@Example.com", email_verified: true, password_set: true },
      ]);
      expect(await rows(handle, sql`select user_id, role from memberships order by user_id`)).toEqual([
        { user_id: 1, role: "founder" },
        { user_id: 2, role: "member" },
      ]);
      const [invitation] = await rows<{ status: string; token_hash: string | null; days_left: number }>(
        handle,
        sql`select status, token_hash, round(extract(epoch from expires_at - now()) / 86400) as days_left from invitations`,
      );
      expect({ ...invitation, days_left: Number(invitation!.days_left) }).toEqual({ status: "pending", token_hash: null, days_left: 14 });
      // A proved address is reserved from now on: the same address cannot be proved by a second account.
      await expect(
        handle.db.execute(
          sql`insert into users (username, email, password_hash, email_verified) values ('bob2', 'bob@example.com', 'h', true)`,
        ),
      ).rejects.toThrow();
    } finally {
      await handle.close();
      await drop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
