import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auditEventHash, genesisHash, type ChainedAuditEvent } from "../../shared/audit-chain";

// npm run audit -- verify, run as the child process an auditor runs, on exports written here.

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "quorum-audit-script-"));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

/** A chain of `count` events hashed as the server hashes them. */
async function chain(count: number): Promise<ChainedAuditEvent[]> {
  const events: ChainedAuditEvent[] = [];
  let prevHash = genesisHash;
  for (let seq = 1; seq <= count; seq += 1) {
    const body = {
      seq,
      at: new Date(Date.UTC(2026, 5, 1, 9, 0, seq)).toISOString(),
      actorId: seq % 2 === 0 ? 7 : null,
      companyId: 3,
      action: "resolution.voted",
      targetType: "resolution",
      targetId: String(seq),
      details: { vote: seq % 2 === 0 ? "yes" : "no", note: 'quotes " and ünïcode' },
      prevHash,
    };
    const hash = await auditEventHash(body);
    events.push({ ...body, hash });
    prevHash = hash;
  }
  return events;
}

const jsonLines = (events: ChainedAuditEvent[], trailer: unknown = trailerOf(events)) =>
  [...events.map((event) => JSON.stringify(event)), JSON.stringify(trailer)].map((line) => `${line}\n`).join("");
const trailerOf = (events: ChainedAuditEvent[]) => ({ headHash: events.at(-1)?.hash ?? genesisHash, count: events.length });

let fileCount = 0;
async function fileWith(text: string): Promise<string> {
  fileCount += 1;
  const file = join(directory, `export-${fileCount}.jsonl`);
  await writeFile(file, text);
  return file;
}

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/ops/audit.ts", ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

// Each run starts Node and tsx (a second or so).
describe("npm run audit -- verify", { timeout: 30_000 }, () => {
  it("accepts an intact export and prints its count and head (exit 0)", async () => {
    const events = await chain(5);
    const result = await run("verify", await fileWith(jsonLines(events)));
    expect(result).toMatchObject({ code: 0, stdout: `ok: 5 events, head ${events[4]!.hash}\n` });
  });

  it("accepts an empty chain's export (a trailer alone)", async () => {
    const result = await run("verify", await fileWith(jsonLines([])));
    expect(result).toMatchObject({ code: 0, stdout: `ok: 0 events, head ${genesisHash}\n` });
  });

  it("names the first event whose details were changed (exit 1)", async () => {
    const events = await chain(6);
    events[3] = { ...events[3]!, details: { vote: "yes", note: "rewritten" } };
    const result = await run("verify", await fileWith(jsonLines(events)));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^broken at seq 4: .*\(3 events hold before it\)\n$/);
  });

  it("names a removed event, a recomputed tail that no longer meets the trailer, and events cut off the end", async () => {
    const events = await chain(6);
    const removed = await run(
      "verify",
      await fileWith(
        jsonLines(
          events.filter((event) => event.seq !== 2),
          trailerOf(events),
        ),
      ),
    );
    expect([removed.code, removed.stdout.split(":")[0]]).toEqual([1, "broken at seq 2"]);

    // A forger who rewrites event 5 and rehashes everything after it still cannot meet the head kept elsewhere.
    const forged = [...events.slice(0, 4)];
    const rewritten = { ...events[4]!, details: { vote: "no" }, prevHash: events[3]!.hash };
    forged.push({ ...rewritten, hash: await auditEventHash(rewritten) });
    const last = { ...events[5]!, prevHash: forged[4]!.hash };
    forged.push({ ...last, hash: await auditEventHash(last) });
    const rehashed = await run("verify", await fileWith(jsonLines(forged, trailerOf(events))));
    expect([rehashed.code, rehashed.stdout.split(":")[0]]).toEqual([1, "broken at seq 7"]);

    const cut = await run("verify", await fileWith(jsonLines(events.slice(0, 4), trailerOf(events))));
    expect([cut.code, cut.stdout.split(":")[0]]).toEqual([1, "broken at seq 5"]);
  });

  it("calls a file without its trailer, or with a line that is not an event, broken", async () => {
    const events = await chain(3);
    const noTrailer = await run("verify", await fileWith(events.map((event) => `${JSON.stringify(event)}\n`).join("")));
    expect(noTrailer.code).toBe(1);
    expect(noTrailer.stdout).toContain("does not end with the trailer line");

    const lines = jsonLines(events).split("\n");
    lines[1] = "{not json";
    const garbled = await run("verify", await fileWith(lines.join("\n")));
    expect(garbled.code).toBe(1);
    expect(garbled.stdout).toMatch(/^broken at seq 2: line 2 is not JSON/);

    const { hash: _hash, ...unhashed } = events[0]!;
    const partial = await run("verify", await fileWith(jsonLines([unhashed as ChainedAuditEvent, ...events.slice(1)])));
    expect(partial.code).toBe(1);
    expect(partial.stdout).toMatch(/^broken at seq 1: line 1 lacks a valid hash/);
  });

  it("reports an export the server could not finish as truncated, and a forged event before its trailer as broken", async () => {
    const events = await chain(5);
    const incomplete = { incomplete: true, count: 3, expectedCount: 5, expectedHeadHash: events[4]!.hash };
    const truncated = await run("verify", await fileWith(jsonLines(events.slice(0, 3), incomplete)));
    expect(truncated.code).toBe(1);
    expect(truncated.stdout).toMatch(/^truncated: .* holds 3 of 5 events/);

    const forged = structuredClone(events.slice(0, 3));
    forged[1]!.details = { vote: "yes" };
    const brokenFirst = await run("verify", await fileWith(jsonLines(forged, incomplete)));
    expect([brokenFirst.code, brokenFirst.stdout.split(":")[0]]).toEqual([1, "broken at seq 2"]);
  });

  it("answers usage errors and unreadable files with exit 2", async () => {
    const usages = [[], ["check", "file.jsonl"], ["verify"], ["verify", "a.jsonl", "b.jsonl"]];
    const [missing, folder, ...results] = await Promise.all([
      run("verify", join(directory, "nowhere.jsonl")),
      run("verify", directory),
      ...usages.map((args) => run(...args)),
    ]);
    results.forEach((result, index) => {
      expect(result.code, usages[index]!.join(" ")).toBe(2);
      expect(result.stderr).toContain("Usage: npm run audit -- verify <file.jsonl>");
    });
    expect(missing!.code).toBe(2);
    expect(missing!.stderr).toContain("Cannot read");
    expect(folder!.code).toBe(2);
  });
});
