import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import request from "supertest";
import { ChainVerifier, auditEventHash, genesisHash, type ChainedAuditEvent } from "../../../../shared/audit-chain";
import { createApp } from "../../app";
import { recordAudit } from "../../db/audit";
import { createCompany } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { chainBatchSize } from "./audit.service";
import { auditFixtures } from "../../testing/audit-fixtures";

const ctx = useTestContext();
const testStart = "2026-06-01T09:00:00.000Z";
afterEach(() => ctx.clock.set(testStart));
const { companyWithFounder, event, record, headRow } = auditFixtures(ctx);

const verify = (user: SignedUp, companyId: number) =>
  request(ctx.app).get(`/api/companies/${companyId}/audit/verify`).set("Authorization", user.bearer);

const exportOf = (user: SignedUp, companyId: number, app = ctx.app) =>
  request(app)
    .get(`/api/companies/${companyId}/audit/export`)
    .set("Authorization", user.bearer)
    .buffer(true)
    .parse((response, done) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => done(null, text));
    });

function parseExport(text: string) {
  const lines = text.split("\n");
  expect(lines.at(-1)).toBe("");
  const parsed = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { events: parsed.slice(0, -1) as unknown as ChainedAuditEvent[], trailer: parsed.at(-1) as { headHash: string; count: number } };
}

describe("GET /api/companies/:companyId/audit/export and /verify", () => {
  it("exports the chain in seq order as JSON Lines with a trailer, which the verifier accepts, across several read batches", async () => {
    const { founder, company } = await companyWithFounder("Export Ltd");
    const writes = chainBatchSize + 20;
    for (let index = 0; index < writes; index += 1) await record(company.id, { details: { index } });

    const response = await exportOf(founder, company.id);
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    expect(response.headers["content-disposition"]).toMatch(/^attachment; filename="Export-Ltd-audit-\d{4}-\d{2}-\d{2}\.jsonl"/);
    const { events, trailer } = parseExport(response.body as string);
    const head = (await headRow(company.id))!;
    expect(trailer).toEqual({ headHash: head.hash, count: head.seq });
    expect(events.map((row) => row.seq)).toEqual(Array.from({ length: head.seq }, (_, index) => index + 1));
    expect(Object.keys(events[0]!)).toEqual([
      "seq",
      "at",
      "actorId",
      "companyId",
      "action",
      "targetType",
      "targetId",
      "details",
      "prevHash",
      "hash",
    ]);
    const verifier = new ChainVerifier();
    for (const row of events) expect(await verifier.add(row)).toBe(true);
    expect(verifier.verdict(trailer)).toEqual({ ok: true, count: head.seq, headHash: head.hash });

    expect((await verify(founder, company.id)).body).toEqual({ ok: true, count: head.seq, headHash: head.hash });
  });

  it("ends an export whose read fails midway with an incomplete trailer, which the verifier reports as truncated", async () => {
    const { founder, company } = await companyWithFounder("Cut Short Ltd");
    for (let index = 0; index < chainBatchSize + 5; index += 1) await record(company.id, { details: { index } });
    // The first batch of events is read; the next read of the chain fails, as a lost connection would.
    let failing = false;
    const flaky = new Proxy(ctx.db, {
      get: (target, property) =>
        property === "execute"
          ? (...args: Parameters<typeof target.execute>) =>
              failing ? Promise.reject(new Error("connection lost")) : target.execute(...args)
          : Reflect.get(target, property, target),
    });
    ctx.whenQuery(/from audit_events e/, () => (failing = true));
    const response = await exportOf(founder, company.id, createApp({ ...ctx.deps, db: flaky }));
    expect(response.status).toBe(200);
    const lines = (response.body as string).trimEnd().split("\n");
    const head = (await headRow(company.id))!;
    expect(JSON.parse(lines.at(-1)!)).toEqual({
      incomplete: true,
      count: chainBatchSize,
      expectedCount: head.seq,
      expectedHeadHash: head.hash,
    });
    expect(lines).toHaveLength(chainBatchSize + 1);
    expect(ctx.logs.some((line) => line.includes("audit export cut short"))).toBe(true);
  });

  it("exports and verifies an empty chain", async () => {
    const founder = await ctx.signUp();
    const company = await createCompany(ctx.db, { name: "Blank Ltd", founderId: founder.id });
    const { events, trailer } = parseExport((await exportOf(founder, company.id)).body as string);
    expect(events).toEqual([]);
    expect(trailer).toEqual({ headHash: genesisHash, count: 0 });
    expect((await verify(founder, company.id)).body).toEqual({ ok: true, count: 0, headHash: genesisHash });
  });

  it("hashes awkward details in the database exactly as the verifier does", async () => {
    const { founder, company } = await companyWithFounder("Awkward Ltd");
    const awkward: Record<string, unknown>[] = [
      { text: 'quotes " and \\ backslashes \\" and slashes / </script>' },
      { text: "control \u0001\u0007\b\f\n\r\t\u001f\u007f and separators \u2028\u2029" },
      { text: "unicode: é ß 中文 עברית 😀 \u00a0", clé: "värde" },
      { zeta: 1, alpha: { b: [3, { y: null, x: "x" }], a: true }, Beta: false, _under: "", "10": "ten", "9": "nine", "": "empty key" },
      {
        numbers: [
          0, -1, 42, 3.5, -0.25, 0.1, 0.30000000000000004, 123456789012345, 1e20, 2147483647, 1e21, -1.5e-7, 1e-7, 5e-324,
          1.7976931348623157e308,
        ],
      },
      { empty: {}, none: [], nested: [[[]], [{}], [null, true, false]] },
    ];
    for (const details of awkward) await record(company.id, { actorId: founder.id, details });
    await record(company.id, { details: undefined, targetId: undefined });

    const { events } = parseExport((await exportOf(founder, company.id)).body as string);
    const mine = events.slice(-awkward.length - 1);
    expect(mine.map((row) => row.details)).toEqual([...awkward, null]);
    for (const row of mine) {
      const { hash, ...rest } = row;
      expect(await auditEventHash(rest), JSON.stringify(row.details)).toBe(hash);
    }
    expect((await verify(founder, company.id)).body).toMatchObject({ ok: true });
  });

  it("keeps one unbroken chain when 20 writers append 200 events at once", async () => {
    const { founder, company } = await companyWithFounder("Concurrent Ltd");
    const before = (await headRow(company.id))?.seq ?? 0;
    const writers = Array.from({ length: 20 }, (_, writer) =>
      (async () => {
        for (let index = 0; index < 10; index += 1) {
          await ctx.db.transaction(async (tx) => {
            await recordAudit(tx, ctx.clock, event(company.id, { actorId: founder.id, details: { writer, index } }));
          });
        }
      })(),
    );
    await Promise.all(writers);

    const head = (await headRow(company.id))!;
    expect(head.seq).toBe(before + 200);
    const seqs = await ctx.db.execute(sql`select seq from audit_events where chain_key = ${company.id} order by seq`);
    expect((seqs as unknown as { rows: { seq: number }[] }).rows.map((row) => Number(row.seq))).toEqual(
      Array.from({ length: head.seq }, (_, index) => index + 1),
    );
    expect((await verify(founder, company.id)).body).toEqual({ ok: true, count: head.seq, headHash: head.hash });
    const { events, trailer } = parseExport((await exportOf(founder, company.id)).body as string);
    const writes = events.filter((row) => row.details !== null && typeof row.details === "object" && "writer" in row.details);
    expect(writes).toHaveLength(200);
    expect(trailer.count).toBe(head.seq);
  });

  it("names the first edited event, through the API and the offline script alike", async () => {
    const { founder, company } = await companyWithFounder("Tampered Ltd");
    for (let index = 0; index < 8; index += 1) await record(company.id, { actorId: founder.id, details: { amount: index * 100 } });
    const head = (await headRow(company.id))!;
    const target = head.seq - 4;
    await ctx.db.execute(sql`update audit_events set details = '{"amount": 1}'::jsonb where chain_key = ${company.id} and seq = ${target}`);

    expect((await verify(founder, company.id)).body).toEqual({ ok: false, count: target - 1, brokenAt: { seq: target } });

    const exported = (await exportOf(founder, company.id)).body as string;
    const directory = await mkdtemp(join(tmpdir(), "quorum-audit-"));
    try {
      const file = join(directory, "board-audit.jsonl");
      await writeFile(file, exported);
      const outcome = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/ops/audit.ts", "verify", file]).then(
        () => ({ code: 0, stdout: "" }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toContain(`broken at seq ${target}`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
