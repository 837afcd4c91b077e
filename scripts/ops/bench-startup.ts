// The start-up part of `npm run bench`: how long a restart of the built server takes to answer, on the embedded database
// and on Postgres. Each database is started once to create and migrate it (not counted), then the server is started
// again on it `runs` times: from the spawn to the first 200 from /api/health, with the process's CPU time by then
// (all its threads: steadier than the wall clock when other work shares the machine). Medians.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { serverAllocatorEnv } from "../build/server-env.mjs";
import { freePort } from "../testing/free-port";

export const startupPartName = "start-up";
/** The target: a restart answers within this many ms. */
const targetMs = 1_500;
const pollMs = 10;
const giveUpMs = 60_000;

interface Start {
  ms: number;
  cpuMs?: number;
}

/** CPU time the process has used, in ms, from /proc (Linux; clock ticks of 10 ms); undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The environment a benchmark starts the built server with, as `npm start` does (allocator settings included):
 * production, on 127.0.0.1 at `port`, with only the PATH and HOME of the caller's own, then `env`.
 */
export function productionEnv(port: number, env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    ...serverAllocatorEnv,
    ...env,
  };
}

/** Starts the server as `npm start` does, waits for its first 200 from /api/health, then stops it. */
async function startOnce(script: string, cwd: string, env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["--enable-source-maps", script], {
    cwd,
    stdio: ["ignore", "ignore", "pipe"],
    env: productionEnv(port, { LOG_LEVEL: "warn", ...env }),
  });
  const stderr: string[] = [];
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(String(chunk)));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${stderr.join("")}`);
      if (performance.now() - started > giveUpMs) throw new Error(`the server did not answer within ${giveUpMs / 1000} s`);
      const answered = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status === 200,
        () => false,
      );
      if (answered) return { ms: performance.now() - started, cpuMs: cpuMsOf(child.pid) };
      await new Promise((done) => setTimeout(done, pollMs));
    }
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Restarts of the built server (`script`) on each database: the embedded one in a data directory of its own under
 * `dataDir` (made afresh), and Postgres at `databaseUrl`. Answers the lines to print.
 */
export async function measureStartup(options: {
  script: string;
  cwd: string;
  dataDir: string;
  databaseUrl: string;
  appSecret: string;
  runs: number;
}): Promise<{ within: boolean; lines: string[] }> {
  rmSync(options.dataDir, { recursive: true, force: true });
  mkdirSync(options.dataDir, { recursive: true });
  const databases: { name: string; env: Record<string, string> }[] = [
    { name: "embedded (PGlite)", env: { DATA_DIR: options.dataDir, APP_SECRET: options.appSecret } },
    { name: "Postgres", env: { DATA_DIR: options.dataDir, APP_SECRET: options.appSecret, DATABASE_URL: options.databaseUrl } },
  ];
  const rows: string[] = [];
  let within = true;
  for (const database of databases) {
    const first = await startOnce(options.script, options.cwd, database.env);
    const starts: Start[] = [];
    for (let run = 0; run < options.runs; run += 1) starts.push(await startOnce(options.script, options.cwd, database.env));
    const ms = median(starts.map((start) => start.ms));
    const cpu = starts.every((start) => start.cpuMs !== undefined) ? median(starts.map((start) => start.cpuMs!)) : undefined;
    within &&= ms < targetMs;
    rows.push(
      `| ${database.name} | ${first.ms.toFixed(0)} | ${starts.map((start) => start.ms.toFixed(0)).join(", ")} | ${ms.toFixed(0)} | ${cpu ?? ""} |`,
    );
  }
  return {
    within,
    lines: [
      `Start-up (the built server, spawned to its first 200 from /api/health; restarts on an existing database, median of ${options.runs}; target under ${targetMs / 1000} s):`,
      "",
      "| database | first start ms | restarts ms | median ms | CPU ms by then (median) |",
      "| --- | ---: | ---: | ---: | ---: |",
      ...rows,
    ],
  };
}
