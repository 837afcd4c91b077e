// npm run crash-test: every write the server acknowledged is still there after `kill -9` and a restart.
//
// For the embedded database (a fresh DATA_DIR) and, when DATABASE_URL is set, for that Postgres database:
// start the server in a process group of its own, register a user, keep WRITERS company creations in flight for
// WRITE_MS (half of them creating companies, half changing one shared company, whose audit events all join one
// hash chain), record every 201, SIGKILL the whole group mid-write, start again on the same data, sign in and check
// that every acknowledged company is listed and that the audit chain of every company written to verifies, holding
// an event for each acknowledged change. Exits non-zero on any loss or failure; every wait is bounded.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../testing/free-port";

const WRITERS = 20;
const WRITE_MS = 3_000;
const START_TIMEOUT_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
const WHOLE_RUN_TIMEOUT_MS = 180_000;
/** How many chains are verified at once after the restart. */
const VERIFIERS = 8;
const repoRoot = resolve(import.meta.dirname, "../..");

interface Target {
  name: string;
  env: Record<string, string>;
  cleanup?: () => void;
}

interface Outcome {
  target: string;
  acknowledged: number;
  found: number;
  lost: number[];
  /** Companies whose audit chain did not verify after the restart, with why. */
  broken: string[];
  /** Changes of the shared company acknowledged before the kill. */
  changes: number;
  seconds: number;
  /** Seconds spent in each phase: first start, writing, restart, check and stop. */
  phases: Record<string, number>;
}

/** Every server this run started: killed (whole process group) if the run ends early. */
const running = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

process.on("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});
setTimeout(() => {
  console.error(`crash-test: gave up after ${WHOLE_RUN_TIMEOUT_MS / 1000} s`);
  process.exit(2);
}, WHOLE_RUN_TIMEOUT_MS).unref();

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface StartedServer {
  child: ChildProcess;
  base: string;
  output: string[];
}

/** Starts `server/src/index.ts` as the leader of a new process group and waits until /api/health answers. */
async function startServer(env: Record<string, string>): Promise<StartedServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "server/src/index.ts"], {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      LIMITS_MULTIPLIER: "1000",
      ...env,
    },
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...String(chunk).split("\n").filter(Boolean));
    output.splice(0, Math.max(0, output.length - 40));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output.join("\n")}`);
    try {
      const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return { child, base, output };
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  killGroup(child, "SIGKILL");
  throw new Error(`the server did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output.join("\n")}`);
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

async function api<T>(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/**
 * Each company's audit chain through the verify route, VERIFIERS at a time: the companies whose chain does not
 * verify, or holds fewer events than the acknowledged writes made, with why.
 */
async function brokenChains(base: string, token: string, companies: { id: number; events: number }[]): Promise<string[]> {
  const broken: string[] = [];
  const queue = [...companies];
  const verifier = async () => {
    for (let company = queue.shift(); company; company = queue.shift()) {
      const verdict = await api<{ ok: boolean; count: number; brokenAt?: { seq: number } }>(
        base,
        "GET",
        `/api/companies/${company.id}/audit/verify`,
        token,
      );
      if (verdict.status !== 200) broken.push(`company ${company.id}: verify answered ${verdict.status}`);
      else if (!verdict.body.ok) broken.push(`company ${company.id}: broken at seq ${verdict.body.brokenAt?.seq}`);
      else if (verdict.body.count < company.events) {
        broken.push(`company ${company.id}: ${verdict.body.count} events, ${company.events} acknowledged`);
      }
    }
  };
  await Promise.all(Array.from({ length: VERIFIERS }, verifier));
  return broken;
}

async function crashAndRecover(target: Target): Promise<Outcome> {
  const started = Date.now();
  const phases: Record<string, number> = {};
  let phaseStart = started;
  const phase = (name: string) => {
    phases[name] = (Date.now() - phaseStart) / 1000;
    phaseStart = Date.now();
  };
  const username = `crash${randomBytes(4).toString("hex")}`;
  const password = randomBytes(12).toString("base64url");

  const first = await startServer(target.env);
  const registered = await api<{ token: string }>(first.base, "POST", "/api/auth/register", undefined, {
    username,
    email: `${username}@example.com`,
    password,
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
  const token = registered.body.token;
  const profile = { industry: "technology", location: "Lisbon, Portugal", stage: "seed" };
  const shared = await api<{ id: number }>(first.base, "POST", "/api/companies", token, { name: "Crash shared", ...profile });
  if (shared.status !== 201) throw new Error(`creating the shared company answered ${shared.status}`);
  phase("start");

  // Writers keep WRITERS requests in flight; the server is killed under them, without waiting for any.
  // Every 201 the client received counts, even one that arrives as the signal lands.
  const acknowledged = new Map<number, string>();
  let changes = 0;
  let killed = false;
  let sequence = 0;
  // Even writers create companies (each its own chain); odd ones change the shared company, so that its
  // chain's head is contended when the kill lands.
  const writer = async (_: unknown, index: number) => {
    while (!killed) {
      const name = `Crash ${(sequence += 1)}`;
      try {
        if (index % 2 === 0) {
          const created = await api<{ id: number }>(first.base, "POST", "/api/companies", token, { name, ...profile });
          if (created.status === 201) acknowledged.set(created.body.id, name);
          else throw new Error(`a write answered ${created.status}`);
        } else {
          const changed = await api(first.base, "PUT", `/api/companies/${shared.body.id}`, token, {
            name: "Crash shared",
            ...profile,
            description: name,
          });
          if (changed.status === 200) changes += 1;
          else throw new Error(`a change answered ${changed.status}`);
        }
      } catch (error) {
        if (!killed) throw error;
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, writer);
  await sleep(WRITE_MS);
  killed = true;
  killGroup(first.child, "SIGKILL");
  if (!(await waitForExit(first.child, 10_000))) throw new Error("the server survived SIGKILL");
  const failedWriter = (await Promise.allSettled(writers)).find((result) => result.status === "rejected");
  if (failedWriter) throw (failedWriter as PromiseRejectedResult).reason;
  phase("write");

  const second = await startServer(target.env);
  phase("restart");
  let lost: number[];
  let broken: string[];
  try {
    const signedIn = await api<{ token: string }>(second.base, "POST", "/api/auth/login", undefined, { username, password });
    if (signedIn.status !== 200) throw new Error(`the registered account could not sign in after the restart (${signedIn.status})`);
    const listed = await api<{ id: number; name: string }[]>(second.base, "GET", "/api/companies", signedIn.body.token);
    const present = new Map(listed.body.map((company) => [company.id, company.name]));
    lost = [...acknowledged].filter(([id, name]) => present.get(id) !== name).map(([id]) => id);
    phase("check");
    broken = await brokenChains(second.base, signedIn.body.token, [
      { id: shared.body.id, events: 1 + changes },
      ...[...acknowledged.keys()].map((id) => ({ id, events: 1 })),
    ]);
    phase("verify");
  } finally {
    killGroup(second.child, "SIGTERM");
    if (!(await waitForExit(second.child, 15_000))) killGroup(second.child, "SIGKILL");
  }
  phase("stop");
  return {
    target: target.name,
    acknowledged: acknowledged.size,
    found: acknowledged.size - lost.length,
    lost,
    broken,
    changes,
    seconds: (Date.now() - started) / 1000,
    phases,
  };
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), "quorum-crash-"));
  const targets: Target[] = [
    { name: "embedded (PGlite)", env: { DATA_DIR: dataDir }, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) },
  ];
  if (process.env.DATABASE_URL) {
    targets.push({
      name: "Postgres (DATABASE_URL)",
      env: { DATABASE_URL: process.env.DATABASE_URL, APP_SECRET: randomBytes(48).toString("base64") },
    });
  }

  // The targets share nothing, so they run side by side: the embedded database's first start dominates.
  const results = await Promise.allSettled(targets.map((target) => crashAndRecover(target).finally(() => target.cleanup?.())));
  const outcomes: Outcome[] = [];
  let failed = false;
  results.forEach((result, index) => {
    if (result.status === "fulfilled") outcomes.push(result.value);
    else {
      failed = true;
      const reason: unknown = result.reason;
      console.error(`crash-test ${targets[index]!.name}: ${reason instanceof Error ? reason.message : String(reason)}`);
    }
  });

  for (const outcome of outcomes) {
    const verdict = outcome.lost.length === 0 ? "ok" : `LOST ${outcome.lost.length} (ids ${outcome.lost.slice(0, 20).join(", ")})`;
    const chains =
      outcome.broken.length === 0
        ? `every audit chain verifies (${outcome.acknowledged + 1} companies, ${outcome.changes} changes of the shared one)`
        : `BROKEN audit chains: ${outcome.broken.slice(0, 10).join("; ")}`;
    console.log(
      `crash-test ${outcome.target}: ${outcome.acknowledged} writes acknowledged, ${outcome.found} found after kill -9 and restart, ${verdict}; ${chains} (${outcome.seconds.toFixed(1)} s: ${Object.entries(
        outcome.phases,
      )
        .map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`)
        .join(", ")})`,
    );
    if (outcome.lost.length > 0 || outcome.acknowledged === 0 || outcome.changes === 0 || outcome.broken.length > 0) failed = true;
  }
  if (!process.env.DATABASE_URL) console.log("crash-test: DATABASE_URL is unset, so real Postgres was not tried");
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
