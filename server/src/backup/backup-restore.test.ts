import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, count, eq, like } from "drizzle-orm";
import request from "supertest";
import { resolutions, votes } from "../db/schema";
import { createTestContext, useTestContext, type SignedUp, type TestContext } from "../testing/test-context";
import { minutesFixtures } from "../testing/minutes-fixtures";
import { resolutionFixtures } from "../testing/resolution-fixtures";
import { versionFixtures } from "../testing/version-fixtures";
import { extractBackup, type Manifest } from "./backup-file";
import { brokenAuditChains, inventoryDifferences, takeInventory } from "./inventory";

// npm run backup and npm run restore, run as the operator runs them (child processes) against a DATA_DIR on disk whose
// server (this file's app) keeps writing: what is restored is what the backup's manifest says, and the chains hold.

// Made when the tests run (not on Postgres, where they are skipped); short, for the control socket's path.
const root = join(tmpdir(), `qb-${process.pid}-${randomBytes(4).toString("hex")}`);
const dataDir = join(root, "data");
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function run(script: "backup" | "restore", file: string, env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", `scripts/ops/${script}.ts`, file],
      { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** The files directly in `directory` (none when it is absent). */
const namesIn = (directory: string) => readdir(directory).catch(() => [] as string[]);

// The embedded database only: with Postgres, backups are pg_dump's.
describe.skipIf(process.env.QUORUM_TEST_DB === "postgres")("npm run backup and npm run restore", { timeout: 180_000 }, () => {
  const ctx = useTestContext({}, { dataDir });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const papers: { id: number; sha256: string }[] = [];
  let founder: SignedUp;
  let companyIds: number[] = [];
  let noteId = 0;
  const backupFile = join(root, "quorum.zip");
  let manifest: Manifest;

  async function seed() {
    const { upload, uploadPdf, replace } = versionFixtures(ctx);
    const board = await ctx.board("Backup Holdings");
    founder = board.founder;
    for (const [name, pages] of [
      ["Budget.pdf", 3],
      ["Plan.pdf", 2],
    ] as const) {
      const paper = await uploadPdf(founder, name, name, pages);
      papers.push({ id: paper.id, sha256: sha256(paper.bytes) });
    }
    const text = Buffer.from("Minutes of the last meeting\n");
    papers.push({ id: (await upload(founder, "Notes.txt", text)).id, sha256: sha256(text) });
    const second = Buffer.from("The plan, revised\n");
    expect((await replace(founder, papers[2]!.id, "Revised", "Notes.txt", second)).status).toBe(201);
    papers[2]!.sha256 = sha256(second);
    // A private note, sealed under the secret: it reads back only if the secret came back with the database.
    const note = await request(ctx.app)
      .post(`/api/documents/${papers[0]!.id}/notes`)
      .set("Authorization", founder.bearer)
      .send({ version: 1, page: 1, text: "Ask about the capex line" });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    noteId = note.body.id as number;

    const { knownRecord, draft } = minutesFixtures(ctx);
    const record = await knownRecord("Minutes Ltd");
    expect((await draft(record.cal, record.meetingId)).status).toBe(200);
    const { boardWith, created, allVote } = resolutionFixtures(ctx);
    const voting = await boardWith(2);
    await allVote(voting.voters, await created(voting.founder), ["yes", "yes", "no"]);
    companyIds = [board.company.id, record.company.id, voting.company.id];
    return voting;
  }

  /** Resolutions and votes, one after another, until `stop()`: each acknowledged write counted. */
  function keepWriting(voting: { founder: SignedUp; voters: SignedUp[] }) {
    const { created, vote } = resolutionFixtures(ctx);
    let stopped = false;
    let acknowledged = 0;
    const loop = (async () => {
      while (!stopped) {
        const id = await created(voting.founder, { title: `Resolution ${acknowledged}` });
        acknowledged += 1;
        expect((await vote(voting.voters[1]!, id, "yes")).status).toBe(200);
        acknowledged += 1;
      }
    })();
    return {
      acknowledged: () => acknowledged,
      stop: async () => {
        stopped = true;
        await loop;
      },
    };
  }

  it("backs up while the server writes, and restores what the manifest says: every table, file and audit chain", async () => {
    const voting = await seed();
    const writes = keepWriting(voting);
    await vi.waitFor(() => expect(writes.acknowledged()).toBeGreaterThan(4), { timeout: 30_000 });
    const before = writes.acknowledged();
    const backup = await run("backup", backupFile, { DATA_DIR: dataDir });
    const during = writes.acknowledged() - before;
    await writes.stop();
    expect(backup.code, backup.stderr).toBe(0);
    // The server kept answering while it was copied.
    expect(during).toBeGreaterThan(0);
    expect(backup.stdout).toMatch(/^Copied the database of the running server at .*: it was held still for [\d.]+ ms/);
    expect(await namesIn(dataDir)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^\.backup-/)]));

    manifest = await extractBackup(backupFile, join(root, "inspected"));
    expect(manifest).toMatchObject({ source: "running server", formatVersion: 1 });
    expect(manifest.heldMs).toBeGreaterThan(0);
    expect(manifest.files.map((file) => file.path)).toContain("secret");
    const rows = new Map(manifest.tables.map((table) => [table.name, table.rows]));
    for (const table of ["users", "documents", "file_chunks", "meetings", "meeting_minutes", "votes", "audit_events"]) {
      expect(rows.get(`public.${table}`), table).toBeGreaterThan(0);
    }
    for (const head of manifest.auditHeads) expect(head).toMatchObject({ verified: true });
    // One instant while the writes went on: every vote acknowledged before the backup began, none after it ended.
    const seededVotes = 3;
    expect(rows.get("public.votes")).toBeGreaterThanOrEqual(seededVotes + Math.floor(before / 2));
    expect(rows.get("public.votes")).toBeLessThanOrEqual(seededVotes + Math.ceil(writes.acknowledged() / 2));
    // What the backup printed names each table with its rows, and each chain's head.
    for (const table of manifest.tables) expect(backup.stdout).toMatch(new RegExp(`${table.name} +${table.rows} +${table.sha256}`));
    for (const head of manifest.auditHeads) expect(backup.stdout).toContain(head.hash);

    const restoredDir = join(root, "restored");
    const restore = await run("restore", backupFile, { DATA_DIR: restoredDir });
    expect(restore.code, restore.stderr).toBe(0);
    for (const table of manifest.tables) expect(restore.stdout).toMatch(new RegExp(`${table.name} +${table.rows} +${table.sha256}`));
    expect((await namesIn(restoredDir)).sort()).toEqual(["db", "secret"]);

    const restored: TestContext = await createTestContext({}, { dataDir: restoredDir });
    try {
      expect(inventoryDifferences(manifest, await takeInventory(restored.db))).toEqual([]);
      expect(await brokenAuditChains(restored.db, manifest.auditHeads)).toEqual([]);
      // One instant of the writes, with no gap: resolutions 0, 2, 4, … up to the last, each voted on but perhaps the last.
      const written = await restored.db
        .select({ title: resolutions.title, votes: count(votes.id) })
        .from(resolutions)
        .leftJoin(votes, eq(votes.resolutionId, resolutions.id))
        .where(and(eq(resolutions.companyId, voting.company.id), like(resolutions.title, "Resolution %")))
        .groupBy(resolutions.id);
      const numbers = written.map((row) => Number(row.title.slice("Resolution ".length))).sort((a, b) => a - b);
      expect(numbers).toEqual(numbers.map((_, index) => index * 2));
      const unvoted = written.filter((row) => row.votes === 0).map((row) => row.title);
      expect(unvoted.length === 0 || (unvoted.length === 1 && unvoted[0] === `Resolution ${numbers.at(-1)}`), unvoted.join()).toBe(true);
      // Served by Quorum started on the restored DATA_DIR: the same sessions, files, note and chains.
      const api = () => request(restored.app);
      for (const paper of papers) {
        const download = await api().get(`/api/documents/${paper.id}/download`).set("Authorization", founder.bearer).responseType("blob");
        expect(download.status).toBe(200);
        expect(sha256(download.body as Buffer)).toBe(paper.sha256);
      }
      const notes = await api().get(`/api/documents/${papers[0]!.id}/notes`).set("Authorization", founder.bearer);
      expect(notes.body).toEqual([expect.objectContaining({ id: noteId, text: "Ask about the capex line" })]);
      for (const companyId of companyIds) {
        const owner = companyId === voting.company.id ? voting.founder : companyId === companyIds[1] ? null : founder;
        if (!owner) continue;
        const verdict = await api().get(`/api/companies/${companyId}/audit/verify`).set("Authorization", owner.bearer);
        expect(verdict.body).toMatchObject({ ok: true });
      }
    } finally {
      await restored.close();
    }
  });

  it("refuses a DATA_DIR that is not empty, naming it, and changes nothing", async () => {
    const { restoreBackup } = await import("./restore-backup");
    const before = await namesIn(dataDir);
    await expect(restoreBackup({ dataDir, file: backupFile, print: () => undefined })).rejects.toThrow(`${dataDir} is not empty (it holds`);
    expect(await namesIn(dataDir)).toEqual(before);
    expect((await namesIn(root)).filter((name) => name.includes(".restore-"))).toEqual([]);
  });
});
