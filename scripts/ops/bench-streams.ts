// The live events part of `npm run bench`: 2,000 event streams (`GET /api/events`, 200 members with ten each) open
// on Quorum while 50 votes a second land on one resolution for BENCH_SECONDS (10 by default); with streams and votes
// on one instance, then with the streams on one instance and the votes on another of the same Postgres (the changes
// reach the first through LISTEN/NOTIFY). First, the same burst with no stream open, as the yardstick for the votes.
// Each run starts fresh instances of the built server.
//
// For every stream and every vote it takes the time from the vote's answer to the first event on that stream whose
// counts include the vote (p50, p99, max), and it counts streams lost (ended or failed), (stream, vote) pairs never
// delivered and streams that did not end on the final counts. It samples each server's resident memory (VmRSS every
// 100 ms, and VmHWM), the CPU time of the servers, of this database's Postgres backends and of the bench itself
// during the burst; it times two requests sent to the votes' server every 100 ms meanwhile (the health check, which
// takes a database connection, and the signed-in user, answered from the session cache), and reads the bench's own
// event-loop delay (a bench that lags inflates every delay).
//
// Inclusion is decidable because every vote of a run is a member's first on that resolution: the resolution's row
// lock puts the votes in one order, each one raises `total` by one, its answer carries the total it left, and an
// event includes it when the event's total is at least that.
import { insertBoard } from "./bench-seed";
import http from "node:http";
import { existsSync, readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { maxStreamsPerSession } from "../../shared/live-events";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { resolutions } from "../../server/src/db/schema";
import { createSession } from "../../server/src/http/session";
import { defaultLimits } from "../../server/src/limits";

/** Members who hold streams, each with as many as one session may open. */
const STREAM_OWNERS = 200;
const STREAMS = STREAM_OWNERS * maxStreamsPerSession;
const VOTES_PER_SECOND = 50;
/** Members who never vote, so the resolution stays pending whoever else votes. */
const NON_VOTERS = 20;
/**
 * Votes on a resolution of their own before each run, all at once: the servers' code is warm and their pools hold
 * connections with their statements prepared when the burst starts, as on an instance that has been serving.
 */
const WARM_VOTES = 40;
/** Streams opened at once while setting up. */
const OPEN_CONCURRENCY = 50;
/** How long after the last vote's answer every stream may take to show the final counts. */
const SETTLE_MS = 10_000;
/** How often the votes' server is asked for its health and the signed-in user during the burst. */
const PROBE_MS = 100;
const streamTargets = { p99Ms: 1_000, lost: 0, rssMb: 400 };
/** What `--only` matches to run this part. */
export const streamsPartName = "live event streams";

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

export interface StreamsSeed {
  /** One session per member; member i casts the i-th vote of a run, the first STREAM_OWNERS hold the streams. */
  tokens: string[];
  /** Per run (no streams, one instance, two): a resolution to warm up on and the one measured. */
  runs: { warm: number; measured: number }[];
  votes: number;
  databaseUrl: string;
}

const runTitles = ["no streams", "one instance", "two instances"];

/** A company of its own: members enough for a vote each, plus some who never vote, and a pair of resolutions per run. */
export async function seedStreams(databaseUrl: string, seconds: number): Promise<StreamsSeed> {
  const votes = VOTES_PER_SECOND * seconds;
  const memberCount = Math.max(votes, STREAM_OWNERS, WARM_VOTES) + NON_VOTERS;
  const handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
  const db = handle.db;
  try {
    const { companyId, people } = await insertBoard(db, {
      name: "Live Holdings",
      stage: "seed",
      handle: "live",
      firstName: "Member",
      lastName: "Live",
      people: memberCount,
      roleOf: (i) => (i === 0 ? "founder" : "member"),
    });
    const tokens: string[] = [];
    for (let from = 0; from < people.length; from += 10) {
      const batch = people.slice(from, from + 10);
      tokens.push(
        ...(await Promise.all(
          batch.map(({ id }) => createSession(db, systemClock, id, "bench", { maxPerUser: defaultLimits.sessionsPerUser })),
        )),
      );
    }
    const deadline = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000);
    const created = await db
      .insert(resolutions)
      .values(
        runTitles
          .flatMap((run) => [`Warm-up, ${run}`, `Burst, ${run}`])
          .map((title) => ({
            companyId,
            title,
            description: `That the board approves the ${title.toLowerCase()} item.`,
            type: "Ordinary" as const,
            deadline,
            createdBy: people[0]!.id,
          })),
      )
      .returning({ id: resolutions.id });
    await db.execute(sql`analyze`);
    const ids = created.map(({ id }) => id);
    return { tokens, runs: runTitles.map((_, at) => ({ warm: ids[2 * at]!, measured: ids[2 * at + 1]! })), votes, databaseUrl };
  } finally {
    await handle.close();
  }
}

// --- The processes ---

/** A started Quorum instance. */
export interface StreamServer {
  base: string;
  pid: number | undefined;
  stop: () => Promise<void>;
}

function statusKb(pid: number | undefined, field: string): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/status`)) return undefined;
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb === undefined ? undefined : Number(kb);
}
const rssMb = (pid: number | undefined) => (statusKb(pid, "VmRSS") ?? NaN) / 1024;
const hwmMb = (pid: number | undefined) => (statusKb(pid, "VmHWM") ?? NaN) / 1024;

/** CPU time (user + system) of a process in ms, from /proc (clock ticks of 10 ms); NaN elsewhere. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The CPU time of this database's Postgres backends (other databases' work on the same server left out). */
async function postgresCpu(client: pg.Client): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
  );
  return new Map(rows.map(({ pid }) => [pid, cpuMs(pid)]));
}

/** CPU used between two readings, by backends alive at the second (one that came and went meanwhile is missed). */
function postgresCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) if (!Number.isNaN(ms)) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** Samples a process's resident memory every 100 ms; `peak` is the larger of the samples and VmHWM. */
function memorySampler(pid: number | undefined) {
  let sampled = rssMb(pid);
  const timer = setInterval(() => (sampled = Math.max(sampled, rssMb(pid))), 100);
  timer.unref();
  return {
    now: () => rssMb(pid),
    stop() {
      clearInterval(timer);
      return Math.max(sampled, hwmMb(pid));
    },
  };
}

// --- Streams ---

interface Watcher {
  /** When this stream first held counts that include the vote that left total k (index k); NaN until then. */
  arrivals: Float64Array;
  /** The highest total this stream has been sent for the measured resolution. */
  seen: number;
  /** Its last counts, "yes/no/abstain". */
  counts: string;
  /** Events received for the measured resolution. */
  events: number;
  /** Of each of those events: when the server published it (its id is the wall time in µs) and how long it took to arrive, ms. */
  published: number[];
  lags: number[];
  lost: boolean;
  closing: boolean;
  request: http.ClientRequest;
}

// The event as event-hub.ts writes it (JSON.stringify keeps the fields in this order): matched as text, no JSON parse.
const votesEvent = /id: (\d+)\nevent: votes\ndata: \{"resolutionId":(\d+),"yes":(\d+),"no":(\d+),"abstain":(\d+),"total":(\d+)\}/g;

function openStream(agent: http.Agent, base: string, token: string, resolutionId: number, votes: number): Promise<Watcher> {
  return new Promise((resolve, reject) => {
    let opened = false;
    const request = http.get(`${base}/api/events`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => reject(new Error(`a stream was refused: ${response.statusCode} ${body}`)));
        return;
      }
      opened = true;
      const watcher: Watcher = {
        arrivals: new Float64Array(votes + 1).fill(NaN),
        seen: 0,
        counts: "",
        events: 0,
        published: [],
        lags: [],
        lost: false,
        closing: false,
        request,
      };
      let rest = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const at = performance.now();
        const wall = Date.now();
        const text = rest + chunk;
        const end = text.lastIndexOf("\n\n");
        if (end < 0) {
          rest = text;
          return;
        }
        rest = text.slice(end + 2);
        const complete = text.slice(0, end);
        votesEvent.lastIndex = 0;
        for (let match = votesEvent.exec(complete); match; match = votesEvent.exec(complete)) {
          if (Number(match[2]) !== resolutionId) continue;
          const total = Number(match[6]);
          const published = Number(match[1]) / 1000;
          watcher.events += 1;
          watcher.published.push(published);
          watcher.lags.push(wall - published);
          watcher.counts = `${match[3]}/${match[4]}/${match[5]}`;
          if (total > watcher.seen) {
            watcher.arrivals.fill(at, watcher.seen + 1, Math.min(total, votes) + 1);
            watcher.seen = total;
          }
        }
      });
      const gone = () => {
        if (!watcher.closing) watcher.lost = true;
      };
      response.on("close", gone);
      response.on("error", gone);
      request.on("error", gone);
      resolve(watcher);
    });
    request.on("error", (error) => {
      if (!opened) reject(error);
    });
  });
}

/** Opens `count` streams over the owners' sessions (maxStreamsPerSession each), OPEN_CONCURRENCY at a time. */
async function openStreams(agent: http.Agent, base: string, tokens: string[], resolutionId: number, votes: number, count: number) {
  const watchers: Watcher[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) {
      watchers.push(await openStream(agent, base, tokens[Math.floor(index / maxStreamsPerSession)]!, resolutionId, votes));
    }
  };
  try {
    await Promise.all(Array.from({ length: OPEN_CONCURRENCY }, worker));
  } catch (error) {
    closeStreams(watchers);
    throw error;
  }
  return watchers;
}

function closeStreams(watchers: Watcher[]): void {
  for (const watcher of watchers) {
    watcher.closing = true;
    watcher.request.destroy();
  }
}

// --- Votes ---

interface Answer {
  status: number;
  counts?: { yes: number; no: number; abstain: number; total: number };
  text: string;
}

function vote(agent: http.Agent, base: string, token: string, resolutionId: number, choice: string): Promise<Answer> {
  const body = JSON.stringify({ vote: choice });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}/api/resolutions/${resolutionId}/vote`,
      {
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          resolve({ status, text, counts: status === 200 ? (JSON.parse(text) as Answer["counts"]) : undefined });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const choices = ["yes", "no", "abstain"] as const;

/** `count` votes at VOTES_PER_SECOND, voter i casting the i-th, each sent on time whatever the earlier answers. */
async function burst(agent: http.Agent, base: string, tokens: string[], resolutionId: number, count: number) {
  const interval = 1000 / VOTES_PER_SECOND;
  /** When the vote that left total k was answered (index k). */
  const answered = new Float64Array(count + 1).fill(NaN);
  const latencies: number[] = [];
  const refused: string[] = [];
  /** Votes that got no answer at all (the connection failed). */
  const failed: string[] = [];
  let duplicateTotals = 0;
  let final = { total: 0, counts: "" };
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i += 1) {
    const wait = start + i * interval - performance.now();
    if (wait >= 1) await sleep(wait);
    const sent = performance.now();
    pending.push(
      vote(agent, base, tokens[i]!, resolutionId, choices[i % choices.length]!).then(
        ({ status, counts, text }) => {
          const at = performance.now();
          latencies.push(at - sent);
          if (!counts) return void refused.push(`${status} ${text.slice(0, 200)}`);
          if (counts.total > count || !Number.isNaN(answered[counts.total]!)) duplicateTotals += 1;
          else answered[counts.total] = at;
          if (counts.total > final.total) final = { total: counts.total, counts: `${counts.yes}/${counts.no}/${counts.abstain}` };
        },
        (error: Error) => void failed.push(error.message),
      ),
    );
  }
  await Promise.all(pending);
  return { answered, latencies, refused, failed, duplicateTotals, final, lastAnswerAt: performance.now() };
}

// --- One run ---

function percentile(sorted: ArrayLike<number>, share: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/** Asks a server for `path` every PROBE_MS until stopped: how the instance answers other requests meanwhile. */
function probe(agent: http.Agent, url: string, token?: string) {
  const latencies: number[] = [];
  let stopped = false;
  const once = () =>
    new Promise<void>((done) => {
      const sent = performance.now();
      const headers = token ? { authorization: `Bearer ${token}` } : {};
      const request = http.get(url, { agent, headers }, (response) => {
        response.resume();
        response.on("end", () => {
          latencies.push(performance.now() - sent);
          done();
        });
      });
      request.on("error", () => done());
    });
  const loop = (async () => {
    const inFlight: Promise<void>[] = [];
    while (!stopped) {
      // Sent on time, not after the previous answer: a stalled instance shows as one long wait per probe.
      inFlight.push(once());
      await sleep(PROBE_MS);
    }
    await Promise.all(inFlight);
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return Float64Array.from(latencies).sort();
    },
  };
}

interface RunResult {
  label: string;
  streams: number;
  openMs: number;
  /** The streams' server's CPU time per stream opened. */
  openCpuMs: number;
  voteP50: number;
  voteP99: number;
  /** When the last vote was answered, from the first sent: the burst lasts `seconds` when the votes keep up. */
  answeredWithinMs: number;
  refused: string[];
  failed: string[];
  delayP50: number;
  delayP99: number;
  delayMax: number;
  /** (stream, vote) pairs whose event came before the vote's answer (counted as 0 ms). */
  early: number;
  /** (stream, vote) pairs never delivered. */
  missed: number;
  lost: number;
  offFinal: number;
  eventsPerStream: number;
  /** Between two publications of the counts (the coalescing window plus the read): p50 and max, ms. */
  intervalP50: number;
  intervalMax: number;
  /** From an event's publication to its arrival on a stream, over every event and stream: the fan-out. */
  fanoutP50: number;
  fanoutP99: number;
  fanoutMax: number;
  /** The streams' server: resident memory before the streams, with them open (before the burst), and the peak. */
  memory: { before: number; open: number; peak: number };
  /** The votes' server's peak, when it is another instance. */
  voteServerPeak?: number;
  /** CPU during the burst and the settling, as a share of one core: each server, this database's backends, the bench. */
  cpu: { servers: number[]; postgres: number; bench: number };
  /** The health check (a database connection's `select 1`) and the signed-in user (the session cache): p50 and max, ms. */
  health: { p50: number; max: number };
  cachedRead: { p50: number; max: number };
  loopP99: number;
  loopMax: number;
  duplicateTotals: number;
}

async function run(
  label: string,
  streamsOn: StreamServer,
  votesOn: StreamServer,
  seed: StreamsSeed,
  at: number,
  streams: number,
): Promise<RunResult> {
  const { tokens, votes } = seed;
  const { warm, measured } = seed.runs[at]!;
  const streamMemory = memorySampler(streamsOn.pid);
  const voteMemory = votesOn === streamsOn ? undefined : memorySampler(votesOn.pid);
  const before = streamMemory.now();
  // A connection per stream, per vote and per read, with no cap: each voter is a client of their own, so the server
  // sees every vote when it is sent (and no reused connection races the server's keep-alive timeout).
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const voteAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const probeAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const openCpuBefore = cpuMs(streamsOn.pid);
  const openedAt = performance.now();
  const watchers = await openStreams(streamAgent, streamsOn.base, tokens, measured, votes, streams);
  const openMs = performance.now() - openedAt;
  const openCpuMs = (cpuMs(streamsOn.pid) - openCpuBefore) / Math.max(1, streams);
  const database = new pg.Client({ connectionString: seed.databaseUrl });
  try {
    await database.connect();
    // Warm up on another resolution, then let the servers settle.
    const warmAnswers = await Promise.all(
      Array.from({ length: WARM_VOTES }, (_, i) => vote(voteAgent, votesOn.base, tokens[i]!, warm, choices[i % choices.length]!)),
    );
    const refusedWarm = warmAnswers.find((answer) => answer.status !== 200);
    if (refusedWarm) throw new Error(`a warm-up vote was refused: ${refusedWarm.status} ${refusedWarm.text}`);
    await sleep(1_000);
    const open = streamMemory.now();

    const servers = votesOn === streamsOn ? [streamsOn] : [streamsOn, votesOn];
    const cpuBefore = servers.map((server) => cpuMs(server.pid));
    const postgresBefore = await postgresCpu(database);
    const benchBefore = process.cpuUsage();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    // The health check and a member who never votes, on the votes' server meanwhile.
    const probes = [
      probe(probeAgent, `${votesOn.base}/api/health`),
      probe(probeAgent, `${votesOn.base}/api/auth/user`, tokens[tokens.length - 1]!),
    ];
    const startedAt = performance.now();
    const cast = await burst(voteAgent, votesOn.base, tokens, measured, votes);
    const answeredWithinMs = cast.lastAnswerAt - startedAt;
    const deadline = cast.lastAnswerAt + SETTLE_MS;
    while (performance.now() < deadline && watchers.some((watcher) => !watcher.lost && watcher.seen < cast.final.total)) await sleep(50);
    const elapsed = performance.now() - startedAt;
    loop.disable();
    const [health, cachedRead] = await Promise.all(
      probes.map(async (running) => {
        const latencies = await running.stop();
        return { p50: percentile(latencies, 0.5), max: latencies.length > 0 ? latencies[latencies.length - 1]! : NaN };
      }),
    );
    const benchCpu = process.cpuUsage(benchBefore);
    const cpu = {
      servers: servers.map((server, i) => (cpuMs(server.pid) - cpuBefore[i]!) / elapsed),
      postgres: postgresCpuBetween(postgresBefore, await postgresCpu(database)) / elapsed,
      bench: (benchCpu.user + benchCpu.system) / 1000 / elapsed,
    };

    const delays = new Float64Array(watchers.length * votes);
    let count = 0;
    let early = 0;
    let missed = 0;
    for (const watcher of watchers) {
      for (let k = 1; k <= votes; k += 1) {
        const answeredAt = cast.answered[k]!;
        if (Number.isNaN(answeredAt)) continue;
        const arrival = watcher.arrivals[k]!;
        if (Number.isNaN(arrival)) {
          missed += 1;
          continue;
        }
        let delay = arrival - answeredAt;
        if (delay < 0) {
          early += 1;
          delay = 0;
        }
        delays[count++] = delay;
      }
    }
    const sorted = delays.subarray(0, count).sort();
    const latencies = Float64Array.from(cast.latencies).sort();
    const lags = Float64Array.from(watchers.flatMap((watcher) => watcher.lags)).sort();
    const publications = [...new Set(watchers.flatMap((watcher) => watcher.published))].sort((a, b) => a - b);
    const intervals = Float64Array.from(publications.slice(1).map((time, i) => time - publications[i]!)).sort();
    return {
      label,
      streams: watchers.length,
      openMs,
      openCpuMs,
      voteP50: percentile(latencies, 0.5),
      voteP99: percentile(latencies, 0.99),
      answeredWithinMs,
      refused: cast.refused,
      failed: cast.failed,
      delayP50: percentile(sorted, 0.5),
      delayP99: percentile(sorted, 0.99),
      delayMax: count > 0 ? sorted[count - 1]! : NaN,
      early,
      missed,
      lost: watchers.filter((watcher) => watcher.lost).length,
      offFinal: watchers.filter((watcher) => watcher.counts !== cast.final.counts).length,
      eventsPerStream: watchers.reduce((sum, watcher) => sum + watcher.events, 0) / Math.max(1, watchers.length),
      intervalP50: percentile(intervals, 0.5),
      intervalMax: intervals.length > 0 ? intervals[intervals.length - 1]! : NaN,
      fanoutP50: percentile(lags, 0.5),
      fanoutP99: percentile(lags, 0.99),
      fanoutMax: lags.length > 0 ? lags[lags.length - 1]! : NaN,
      memory: { before, open, peak: streamMemory.stop() },
      voteServerPeak: voteMemory?.stop(),
      cpu,
      health: health!,
      cachedRead: cachedRead!,
      loopP99: loop.percentile(99) / 1e6,
      loopMax: loop.max / 1e6,
      duplicateTotals: cast.duplicateTotals,
    };
  } finally {
    closeStreams(watchers);
    streamAgent.destroy();
    voteAgent.destroy();
    probeAgent.destroy();
    streamMemory.stop();
    voteMemory?.stop();
    await database.end().catch(() => undefined);
  }
}

// --- The part ---

const int = (value: number) => (Number.isNaN(value) ? "–" : `${Math.round(value)}`);
const share = (value: number) => (Number.isNaN(value) ? "–" : `${Math.round(value * 100)}%`);

/**
 * The three runs, each on fresh instances `start` launches (the built server on the seeded database). Answers the
 * lines to print and whether every target was met; throws when the seed or the server refuses what it should take.
 */
export async function measureStreams(start: (name: string) => Promise<StreamServer>, seed: StreamsSeed) {
  const results: RunResult[] = [];
  const alone = await start("live-alone");
  try {
    results.push(await run("no streams (votes alone)", alone, alone, seed, 0, 0));
  } finally {
    await alone.stop();
  }
  const one = await start("live-one");
  try {
    results.push(await run("one instance", one, one, seed, 1, STREAMS));
  } finally {
    await one.stop();
  }
  const streamsServer = await start("live-streams");
  try {
    const votesServer = await start("live-votes");
    try {
      results.push(await run("two: streams on one, votes on the other", streamsServer, votesServer, seed, 2, STREAMS));
    } finally {
      await votesServer.stop();
    }
  } finally {
    await streamsServer.stop();
  }

  const measured = results.filter((result) => result.streams > 0);
  const peakOf = (result: RunResult) => Math.max(result.memory.peak, result.voteServerPeak ?? 0);
  const p99Met = measured.every((result) => result.delayP99 < streamTargets.p99Ms && result.missed === 0);
  const lostMet = measured.every((result) => result.lost <= streamTargets.lost);
  const memoryMet = measured.every((result) => peakOf(result) < streamTargets.rssMb);
  const metWord = (met: boolean) => (met ? "met" : "NOT MET");
  const lines = [
    `Live events: ${STREAMS.toLocaleString("en")} streams (${STREAM_OWNERS} members × ${maxStreamsPerSession}), ${seed.votes} votes sent at ${VOTES_PER_SECOND}/s on one resolution, each a member's first; delay = from a vote's answer to the first event on a stream that includes it, over every (stream, vote) pair.`,
    "",
    "| run | streams open in | vote answer p50 / p99 ms | last vote answered after | delay p50 ms | p99 ms | max ms | pairs missed | streams lost | not on final counts |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map((result) =>
      result.streams === 0
        ? `| ${result.label} | | ${int(result.voteP50)} / ${int(result.voteP99)} | ${(result.answeredWithinMs / 1000).toFixed(1)} s | | | | | | |`
        : `| ${result.label} | ${(result.openMs / 1000).toFixed(1)} s | ${int(result.voteP50)} / ${int(result.voteP99)} | ${(result.answeredWithinMs / 1000).toFixed(1)} s | ${int(result.delayP50)} | ${int(result.delayP99)} | ${int(result.delayMax)} | ${result.missed} | ${result.lost} | ${result.offFinal} |`,
    ),
    "",
    "| run | events per stream | between publications p50 / max ms | publication → arrival p50 / p99 / max ms | server CPU ms per stream opened | streams' server MB: before → open → peak | votes' server peak MB | CPU in burst: servers / Postgres / bench | votes' server: health check / signed-in user p50 / max ms | bench loop delay p99 / max ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map((result) => {
      const streamed = result.streams > 0;
      const cells = [
        result.label,
        streamed ? result.eventsPerStream.toFixed(0) : "",
        streamed ? `${int(result.intervalP50)} / ${int(result.intervalMax)}` : "",
        streamed ? `${int(result.fanoutP50)} / ${int(result.fanoutP99)} / ${int(result.fanoutMax)}` : "",
        streamed ? result.openCpuMs.toFixed(1) : "",
        `${int(result.memory.before)} → ${int(result.memory.open)} → ${int(result.memory.peak)}`,
        result.voteServerPeak === undefined ? "" : int(result.voteServerPeak),
        `${result.cpu.servers.map(share).join(" + ")} / ${share(result.cpu.postgres)} / ${share(result.cpu.bench)}`,
        `${int(result.health.p50)} / ${int(result.health.max)}; ${int(result.cachedRead.p50)} / ${int(result.cachedRead.max)}`,
        `${int(result.loopP99)} / ${int(result.loopMax)}`,
      ];
      return `| ${cells.join(" | ")} |`;
    }),
    "",
    `Targets: p99 under ${streamTargets.p99Ms / 1000} s with every pair delivered ${metWord(p99Met)}; no stream lost ${metWord(lostMet)}; server resident memory under ${streamTargets.rssMb} MB ${metWord(memoryMet)}.`,
  ];
  for (const result of results) {
    if (result.failed.length > 0)
      lines.push(`${result.label}: ${result.failed.length} votes got no answer (${[...new Set(result.failed)].join(", ")}).`);
  }
  for (const result of measured) {
    if (result.early > 0) lines.push(`${result.label}: ${result.early} pairs arrived before the vote's answer (counted as 0 ms).`);
  }
  const refused = results.flatMap((result) => result.refused.map((text) => `${result.label}: ${text}`));
  const duplicates = results.reduce((sum, result) => sum + result.duplicateTotals, 0);
  if (refused.length > 0) throw new Error(`live events: ${refused.length} votes refused, e.g. ${refused.slice(0, 3).join("; ")}`);
  if (duplicates > 0)
    throw new Error(`live events: ${duplicates} votes answered a total another vote answered: inclusion is not decidable`);
  return { within: p99Met && lostMet && memoryMet, lines };
}
