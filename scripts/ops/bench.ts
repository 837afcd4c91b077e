// npm run bench: Quorum's hot paths against the bare stack it is built on, on real Postgres, in one run.
//
// Builds the server the way production runs it (one esbuild bundle under node, NODE_ENV=production, info logs
// written to a file) and a bare express 5 + drizzle + pg server reading one row by primary key. Uses DATABASE_URL,
// or creates a fresh database on 127.0.0.1:5432 and drops it afterwards. Seeds one company (members, meetings,
// resolutions with votes, documents) straight into the database, then runs autocannon (50 connections,
// BENCH_SECONDS each, 10 by default) on the bare read, each Quorum endpoint, and the bare read again; prints
// req/s, p50, p99, errors and each figure as a share of the bare read (mean of before and after), and the
// server's resident memory after the whole run. Then the board pack (bench-board-pack.ts): its time to first byte
// and total time, and the event loop under packs (the vote poll's p99 and the memory while five packs build), then that
// pack opened in the app's reader (bench-reader.ts): its first page drawn, and the bytes received by then. Then lists at scale (bench-lists.ts): a company with ten
// years of papers, its list screens in Chromium (the built app, built first if stale): elements, first rows, search.
// Then search (bench-search.ts): 10,000 papers of 20 pages in a database of its own, p50/p95 of searches through HTTP.
// Then live events (bench-streams.ts): 2,000 event streams on fresh instances while 50 votes a second land, on one
// instance and on two (streams on one, votes on the other): each stream's delay per vote, streams lost, memory.
// Last, the board's archive (bench-archive.ts): a 2 GiB archive (a few MiB in the smoke run) streamed from a fresh
// instance to a sink, and the server's resident memory growth meanwhile.
//
// First of all, start-up (bench-startup.ts): restarts of the built server on an existing database, embedded and Postgres,
// from the spawn to the first answer of /api/health.
//
// Options: --write puts the table in docs/benchmarks.md; --profile runs Quorum under `node --cpu-prof` and
// prints each server's profile's top entries; --only <text> measures only the endpoints (and parts: "board pack",
// "pack in the reader", "lists at scale", "search", "live event streams", "start-up", "archive") whose name contains the text.
import { insertBoard } from "./bench-seed";
import { archivePartName, archiveScale, measureArchive, seedArchive } from "./bench-archive";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join, resolve } from "node:path";
import autocannon, { type AutocannonRequest, type AutocannonResult } from "autocannon";
import { sql } from "drizzle-orm";
import { build } from "esbuild";
import pg from "pg";
import { meetingCategory } from "../../shared/meeting-model";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { documents, meetings, resolutions, votes } from "../../server/src/db/schema";
import { createSession } from "../../server/src/http/session";
import { defaultLimits } from "../../server/src/limits";
import { measureBoardPack, seedBoardPack } from "./bench-board-pack";
import { measureReader, readerPartName } from "./bench-reader";
import { ensureBuiltApp, measureLists } from "./bench-lists";
import { measureStartup, productionEnv, startupPartName } from "./bench-startup";
import { measureSearch, searchPartName } from "./bench-search";
import { measureStreams, seedStreams, streamsPartName } from "./bench-streams";
import { summarizeProfile } from "./cpuprofile-top";
import { pdfWorkerEntry, serverBundleOptions } from "../build/server-bundle.mjs";
import { freePort } from "../testing/free-port";

const repoRoot = resolve(import.meta.dirname, "../..");
const outDir = join(repoRoot, "dist", "bench");
const seconds = Math.max(1, Number(process.env.BENCH_SECONDS ?? 10) || 10);
const connections = 50;
const args = process.argv.slice(2);
const write = args.includes("--write");
const profile = args.includes("--profile");
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
const listsIncluded = !only || "lists at scale".includes(only);
const START_TIMEOUT_MS = 90_000;
const streamsIncluded = !only || streamsPartName.includes(only);
const startupIncluded = !only || startupPartName.includes(only);
const readerIncluded = !only || readerPartName.includes(only);
const packIncluded = !only || "board pack".includes(only);
const archiveIncluded = !only || archivePartName.includes(only);
const searchIncluded = !only || searchPartName.includes(only);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const running = new Set<ChildProcess>();
/** Each started process's name by pid: whose CPU profile is whose. */
const startedNames = new Map<number, string>();
const cleanups: (() => Promise<void>)[] = [];
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

// --- Database ---

/** DATABASE_URL, or a fresh database on the local Postgres (dropped at the end); undefined when there is neither. */
async function benchDatabase(): Promise<string | undefined> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const admin = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/postgres", connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return undefined;
  }
  const name = `quorum_bench_${Date.now()}_${process.pid}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: "postgres://postgres@127.0.0.1:5432/postgres" });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  });
  return `postgres://postgres@127.0.0.1:5432/${name}`;
}

// --- Servers ---

async function buildServers(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  // The same bundle `npm run build` makes, beside it so it finds migrations and node_modules.
  await build({
    ...serverBundleOptions,
    entryPoints: {
      quorum: join(repoRoot, "server/src/index.ts"),
      bare: join(repoRoot, "scripts/ops/bench-bare-server.ts"),
      ...Object.fromEntries(Object.entries(pdfWorkerEntry).map(([name, path]) => [name, join(repoRoot, path)])),
    },
    outdir: outDir,
  });
}

interface Started {
  child: ChildProcess;
  base: string;
  stop: () => Promise<void>;
}

async function startProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  ready: string,
  nodeArgs: string[] = [],
): Promise<Started> {
  const port = await freePort();
  const logFile = join(outDir, `${name}.log`);
  const fd = openSync(logFile, "w");
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: repoRoot,
    stdio: ["ignore", fd, "pipe"],
    // Both servers start as `npm start` starts Quorum. The load registers and signs in far more often from one
    // address than people do.
    env: productionEnv(port, { LIMITS_MULTIPLIER: "1000", ...env }),
  });
  closeSync(fd);
  running.add(child);
  if (child.pid !== undefined) startedNames.set(child.pid, name);
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(String(chunk)));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  void exited.then(() => running.delete(child));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${stderr.join("")}`);
    try {
      const response = await fetch(`${base}${ready}`, { signal: AbortSignal.timeout(2_000) });
      if (response.status < 500) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${name} did not answer within ${START_TIMEOUT_MS / 1000} s:\n${stderr.join("")}`);
    await sleep(100);
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, base, stop };
}

/** Resident and peak memory of a process, in MB, from /proc (Linux). */
function memoryOf(pid: number | undefined): { rss: number; peak: number } | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return undefined;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

/** CPU time the process has used, in ms, from /proc (Linux; clock ticks of 10 ms); undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

// --- Seed ---

const MEMBERS = 24; // a founder, 3 admins and 20 members: everyone votes
const VOTERS = 20; // the first 20 vote on every resolution; the last 4 never do, so every resolution stays pending
const RESOLUTIONS = 30;
const DOCUMENTS = 50;
const MEETINGS = 10;

interface Seed {
  companyId: number;
  tokens: string[];
  resolutionIds: number[];
  /** The bare server's row. */
  rowId: number;
}

async function seed(databaseUrl: string): Promise<Seed> {
  const handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
  const db = handle.db;
  try {
    const { companyId, people } = await insertBoard(db, {
      name: "Bench Holdings",
      stage: "seed",
      handle: "bench",
      firstName: "Director",
      lastName: "Bench",
      people: MEMBERS + 1,
      roleOf: (i) => (i === 0 ? "founder" : i <= 3 ? "admin" : i < MEMBERS ? "member" : "observer"),
    });
    const tokens: string[] = [];
    for (const { id } of people)
      tokens.push(await createSession(db, systemClock, id, "bench", { maxPerUser: defaultLimits.sessionsPerUser }));

    const founderId = people[0]!.id;
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const meetingDocs = await db
      .insert(documents)
      .values(
        Array.from({ length: MEETINGS }, (_, i) => ({
          companyId: companyId,
          name: `Board meeting ${i + 1}`,
          fileType: "application/json",
          category: meetingCategory,
          uploadedBy: founderId,
        })),
      )
      .returning({ id: documents.id });
    await db.insert(meetings).values(
      meetingDocs.map(({ id }, i) => ({
        documentId: id,
        companyId: companyId,
        title: `Board meeting ${i + 1}`,
        startsAt: new Date(now + (i + 1) * 7 * day),
        endsAt: new Date(now + (i + 1) * 7 * day + 2 * 60 * 60 * 1000),
        location: "Virtual (Zoom)",
        status: "confirmed" as const,
        createdBy: founderId,
      })),
    );
    const categories = ["Financial", "Legal", "Governance", "Minutes", "Other"];
    await db.insert(documents).values(
      Array.from({ length: DOCUMENTS }, (_, i) => ({
        companyId: companyId,
        name: `Document ${i + 1}.pdf`,
        fileType: "application/pdf",
        fileSize: 100_000 + i,
        category: categories[i % categories.length]!,
        description: `Board paper number ${i + 1}`,
        uploadedBy: people[i % MEMBERS]!.id,
        createdAt: new Date(now - i * 60_000),
      })),
    );
    const created = await db
      .insert(resolutions)
      .values(
        Array.from({ length: RESOLUTIONS }, (_, i) => ({
          companyId: companyId,
          title: `Resolution ${i + 1}`,
          description: `That the board approves item ${i + 1}.`,
          type: (["Ordinary", "Special", "Unanimous"] as const)[i % 3]!,
          deadline: new Date(now + 30 * day),
          createdBy: founderId,
          createdAt: new Date(now - i * 60_000),
        })),
      )
      .returning({ id: resolutions.id });
    const choices = ["yes", "no", "abstain"] as const;
    await db
      .insert(votes)
      .values(
        created.flatMap(({ id }, r) =>
          people.slice(0, VOTERS).map((person, v) => ({ resolutionId: id, userId: person.id, vote: choices[(r + v) % 3]! })),
        ),
      );
    // Planner statistics, as a database in service has them (autovacuum gathers them within a minute of such
    // writes): without them Postgres guesses one row per company and plans the tallies as nested loops.
    await db.execute(sql`analyze`);
    return { companyId: companyId, tokens, resolutionIds: created.map(({ id }) => id), rowId: companyId };
  } finally {
    await handle.close();
  }
}

// --- Measuring ---

interface Endpoint {
  name: string;
  /** Each request in turn: the i-th request of the run. */
  request: (i: number) => { method: "GET" | "POST"; path: string; token: string; body?: string };
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: string;
  /** Answers other than 2xx: a broken endpoint or seed, which fails the run (connection errors and timeouts only count). */
  non2xx: number;
  /** The server process's CPU time per answered request, in ms: unlike req/s, barely moved by other load on the machine. */
  cpuPerRequest?: number;
}

async function measure(server: Started, endpoint: Endpoint, duration: number): Promise<Row> {
  const base = server.base;
  let i = 0;
  const setupRequest = (request: AutocannonRequest): AutocannonRequest => {
    const next = endpoint.request(i++);
    request.method = next.method;
    request.path = next.path;
    request.headers = { authorization: `Bearer ${next.token}`, ...(next.body ? { "content-type": "application/json" } : {}) };
    request.body = next.body;
    return request;
  };
  const cpuBefore = cpuMsOf(server.child.pid);
  const result: AutocannonResult = await autocannon({ url: base, connections, duration, timeout: 10, requests: [{ setupRequest }] });
  const cpuAfter = cpuMsOf(server.child.pid);
  const answered = result.requests.total;
  const cpuPerRequest = cpuBefore !== undefined && cpuAfter !== undefined && answered > 0 ? (cpuAfter - cpuBefore) / answered : undefined;
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}×${count}`)
    .join(" ");
  return {
    name: endpoint.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    statuses,
    non2xx: result.non2xx,
    cpuPerRequest,
  };
}

function quorumEndpoints(data: Seed): Endpoint[] {
  const { tokens, resolutionIds, companyId } = data;
  const token = (i: number) => tokens[i % tokens.length]!;
  const resolution = (i: number) => resolutionIds[i % resolutionIds.length]!;
  return [
    {
      name: "GET /api/resolutions/:id/votes",
      request: (i) => ({ method: "GET", path: `/api/resolutions/${resolution(i)}/votes`, token: token(i) }),
    },
    {
      name: "GET /api/companies/:id/resolutions",
      request: (i) => ({ method: "GET", path: `/api/companies/${companyId}/resolutions`, token: token(i) }),
    },
    {
      name: "GET /api/companies/:id/documents",
      request: (i) => ({ method: "GET", path: `/api/companies/${companyId}/documents`, token: token(i) }),
    },
    { name: "GET /api/auth/user", request: (i) => ({ method: "GET", path: "/api/auth/user", token: token(i) }) },
    {
      name: "GET /api/companies/:id/compliance",
      request: (i) => ({ method: "GET", path: `/api/companies/${companyId}/compliance`, token: token(i) }),
    },
    {
      name: "GET /api/companies/:id/meetings/upcoming",
      request: (i) => ({ method: "GET", path: `/api/companies/${companyId}/meetings/upcoming`, token: token(i) }),
    },
    {
      // A voter changes their vote: every voter in turn on every resolution in turn; the ones who never vote keep them all open.
      name: "POST /api/resolutions/:id/vote",
      request: (i) => ({
        method: "POST",
        path: `/api/resolutions/${resolution(i)}/vote`,
        token: tokens[Math.floor(i / resolutionIds.length) % VOTERS]!,
        body: JSON.stringify({ vote: (["yes", "no", "abstain"] as const)[i % 3] }),
      }),
    },
  ];
}

const fmt = (value: number, digits = 0) => value.toFixed(digits);

function table(rows: (Row & { ratio?: number })[]): string {
  const lines = [
    "| Endpoint | req/s | p50 ms | p99 ms | errors | share of bare read | server CPU ms/request |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of rows) {
    const cpu = row.cpuPerRequest === undefined ? "" : fmt(row.cpuPerRequest, 2);
    lines.push(
      `| ${row.name} | ${fmt(row.rps)} | ${fmt(row.p50)} | ${fmt(row.p99)} | ${row.errors} | ${row.ratio === undefined ? "" : `${fmt(row.ratio * 100)}%`} | ${cpu} |`,
    );
  }
  return lines.join("\n");
}

function writeResults(section: string): void {
  const file = join(repoRoot, "docs", "benchmarks.md");
  const start = "<!-- bench:results -->";
  const end = "<!-- /bench:results -->";
  const block = `${start}\n${section}\n${end}`;
  const current = existsSync(file)
    ? readFileSync(file, "utf8")
    : `# Benchmarks\n\n\`npm run bench -- --write\` replaces the latest results below.\n\n${start}\n${end}\n`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next =
    from >= 0 && to > from ? current.slice(0, from) + block + current.slice(to + end.length) : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
  console.log(`bench: wrote ${file}`);
}

async function main(): Promise<void> {
  const databaseUrl = await benchDatabase();
  if (!databaseUrl) {
    console.log("bench: no DATABASE_URL and no Postgres on 127.0.0.1:5432: nothing to measure (the benchmark needs real Postgres)");
    return;
  }
  console.log(`bench: building; ${connections} connections, ${seconds} s per endpoint${profile ? ", CPU profile on" : ""}`);
  await buildServers();
  const profileDir = join(outDir, "profiles");
  if (profile) {
    rmSync(profileDir, { recursive: true, force: true });
    mkdirSync(profileDir, { recursive: true });
  }
  const appSecret = randomBytes(32).toString("hex");
  // Every instance alike (the live events part starts more on the same database).
  const startQuorum = (name: string) =>
    startProcess(
      name,
      join(outDir, "quorum.js"),
      { DATABASE_URL: databaseUrl, DATA_DIR: join(outDir, "data"), APP_SECRET: appSecret, LOG_LEVEL: "info" },
      "/api/health",
      ["--enable-source-maps", ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])],
    );
  // The server decides at start whether it serves the app: the lists part needs it built before then.
  if (listsIncluded) ensureBuiltApp();
  // Before any other server runs, so nothing of the bench's own competes with the starts.
  const startup = startupIncluded
    ? await measureStartup({
        script: join(outDir, "quorum.js"),
        cwd: repoRoot,
        dataDir: join(outDir, "startup-data"),
        databaseUrl,
        appSecret,
        // The CI smoke run only proves the restarts work: one each.
        runs: seconds >= 10 ? 3 : 1,
      })
    : undefined;
  const quorum = await startQuorum("quorum");
  cleanups.unshift(quorum.stop);
  const data = await seed(databaseUrl);
  const bare = await startProcess("bare", join(outDir, "bare.js"), { DATABASE_URL: databaseUrl }, `/row/${data.rowId}`);
  cleanups.unshift(bare.stop);

  const bareRead: Endpoint = {
    name: "bare read (express + drizzle + pg, one row)",
    request: () => ({ method: "GET", path: `/row/${data.rowId}`, token: "none" }),
  };
  let endpoints = quorumEndpoints(data);
  if (only) endpoints = endpoints.filter((endpoint) => endpoint.name.includes(only));
  const packSeed = packIncluded || readerIncluded ? await seedBoardPack(databaseUrl) : undefined;

  // Warm both servers up (JIT, pools) before anything is counted.
  const warm = Math.min(2, seconds);
  await measure(bare, bareRead, warm);
  for (const endpoint of endpoints) await measure(quorum, endpoint, Math.min(1, warm));

  const before = await measure(bare, { ...bareRead, name: "bare read, before" }, seconds);
  console.log(`  ${before.name}: ${fmt(before.rps)} req/s`);
  const rows: Row[] = [];
  for (const endpoint of endpoints) {
    const row = await measure(quorum, endpoint, seconds);
    console.log(
      `  ${row.name}: ${fmt(row.rps)} req/s, p99 ${row.p99} ms, ${row.errors} errors${row.errors > 0 ? ` (${row.statuses})` : ""}`,
    );
    rows.push(row);
  }
  const after = await measure(bare, { ...bareRead, name: "bare read, after" }, seconds);
  console.log(`  ${after.name}: ${fmt(after.rps)} req/s`);
  const memory = memoryOf(quorum.child.pid);
  const yardstick = (before.rps + after.rps) / 2;
  // A few packs in a row (fewer in the CI smoke run), after the figures above are taken.
  const votePoll = { path: `/api/resolutions/${data.resolutionIds[0]}/votes`, token: data.tokens[0]! };
  const pack =
    packSeed &&
    packIncluded &&
    (await measureBoardPack({ base: quorum.base, pid: quorum.child.pid }, packSeed, seconds >= 10 ? 5 : 3, votePoll, Math.min(seconds, 5)));
  const reader = packSeed && readerIncluded ? await measureReader({ base: quorum.base }, packSeed, seconds >= 10 ? 3 : 1) : undefined;
  // Seeded only now, so the figures above are taken on the tables they always were.
  const lists = listsIncluded ? await measureLists({ base: quorum.base }, databaseUrl, seconds >= 10 ? 3 : 1) : undefined;
  // On a database and an instance of its own: 200,000 pages would change every other part's figures.
  const search = searchIncluded
    ? await measureSearch(
        (url) =>
          startProcess(
            "quorum-search",
            join(outDir, "quorum.js"),
            { DATABASE_URL: url, DATA_DIR: join(outDir, "search-data"), APP_SECRET: appSecret, LOG_LEVEL: "info" },
            "/api/health",
          ).then((started) => ({ base: started.base, stop: started.stop })),
        databaseUrl,
        seconds < 10,
      )
    : undefined;
  // On instances of their own, so their memory is the streams' alone.
  const live = streamsIncluded
    ? await measureStreams(
        async (name) => {
          const started = await startQuorum(name);
          return { base: started.base, pid: started.child.pid, stop: started.stop };
        },
        await seedStreams(databaseUrl, seconds),
      )
    : undefined;

  // On an instance of its own, so its memory is the archive's alone; the CI smoke run streams a few MiB.
  const smoke = seconds < 10;
  const archive = archiveIncluded
    ? await measureArchive(
        async (name) => {
          const started = await startQuorum(name);
          return { base: started.base, pid: started.child.pid, stop: started.stop };
        },
        await seedArchive(databaseUrl, archiveScale(smoke)),
        smoke,
      )
    : undefined;

  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`;
  const section = [
    `Run of ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine}; ${connections} connections, ${seconds} s per endpoint, Postgres on the same machine.`,
    "",
    table([before, ...rows.map((row) => ({ ...row, ratio: row.rps / yardstick })), after]),
    "",
    memory
      ? `Quorum's resident memory after the whole run: ${memory.rss} MB (peak ${memory.peak} MB).`
      : "Quorum's resident memory: not readable on this system.",
    ...(startup ? ["", ...startup.lines, ...(startup.within ? [] : ["", "Start-up is OUTSIDE its target."])] : []),
    ...(pack ? ["", ...pack.lines, ...(pack.within ? [] : ["The board pack is OUTSIDE its targets."])] : []),
    ...(reader ? ["", ...reader.lines, ...(reader.within ? [] : ["", "The pack in the reader is OUTSIDE its targets."])] : []),
    ...(lists ? ["", ...lists.lines, ...(lists.within ? [] : ["", "The lists are OUTSIDE their targets."])] : []),
    ...(search ? ["", ...search.lines, ...(search.within ? [] : ["", "Search is OUTSIDE its target."])] : []),
    ...(live ? ["", ...live.lines, ...(live.within ? [] : ["", "Live events are OUTSIDE their targets."])] : []),
    ...(archive ? ["", ...archive.lines, ...(archive.within ? [] : ["", "The archive is OUTSIDE its target."])] : []),
  ].join("\n");
  console.log(`\n${section}\n`);

  await quorum.stop();
  await bare.stop();
  if (profile) {
    // One profile per server process (CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile); the bare server has none.
    const files = readdirSync(profileDir).filter((name) => name.endsWith(".cpuprofile"));
    for (const file of files) {
      const name = startedNames.get(Number(file.split(".")[3])) ?? "a server";
      console.log(`bench: profile of ${name}: ${join(profileDir, file)}`);
      console.log(summarizeProfile(JSON.parse(readFileSync(join(profileDir, file), "utf8")), 25));
    }
    if (files.length === 0) console.log("bench: the server wrote no profile");
  }
  if (write) writeResults(section);
  const refused = [before, ...rows, after].filter((row) => row.non2xx > 0);
  if (refused.length > 0)
    throw new Error(`bench: answers other than 2xx from ${refused.map((row) => `${row.name} (${row.statuses})`).join(", ")}`);
}

let failed = false;
const watchdog = setTimeout(
  () => {
    console.error("bench: gave up (the run took too long)");
    process.exit(2);
  },
  (seconds * 20 +
    300 +
    (streamsIncluded ? 240 : 0) +
    (listsIncluded ? 300 : 0) +
    (startupIncluded ? 120 : 0) +
    (archiveIncluded ? (seconds < 10 ? 60 : 900) : 0) +
    // Seeding 200,000 pages and indexing them takes minutes; the smoke run's 1,000 a few seconds.
    (searchIncluded ? (seconds < 10 ? 60 : 1800) : 0)) *
    1000,
);
watchdog.unref();
try {
  await main();
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const cleanup of cleanups) await cleanup().catch((error: unknown) => console.error("bench: cleanup failed:", error));
}
process.exit(failed ? 1 : 0);
