// npm run lighthouse: the first load a visitor on a phone gets on each screen, as Lighthouse scores it.
//
// Builds the app if there is no build, starts the built server on a free port with an in-memory database, makes a
// small board through the API (lighthouse-board.ts: one meeting with five agenda items, five resolutions waiting for
// votes, three papers, two directors and one invitation), and runs Lighthouse 12 (performance only, its default mobile
// settings: a mid-range phone on a slow 4G link, simulated) with Debian's Chromium on sign-in (signed out) and on every
// signed-in screen. Prints the median of each figure per screen and exits non-zero when a screen's median misses a
// target (score, LCP, TBT below) or a page asked for anything outside this machine.
//
//   npm run lighthouse                                   # three runs per screen
//   npm run lighthouse -- --runs 1                       # quicker
//   npm run lighthouse -- --only meeting,company-settings
//   npm run lighthouse -- --build                        # build again first
//   npm run lighthouse -- --save DIR                     # also write each run's full report (JSON) into DIR
//
// Every run starts a browser with a fresh profile, so each loads the screen with an empty cache. The signed-in runs put
// the founder's session token where the app keeps it (local storage) before Lighthouse opens the page.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { startBuiltServer } from "../testing/built-server";
import { seedMeasuredBoard, type MeasuredBoard } from "./lighthouse-board";
import { measure, type Measure } from "./lighthouse-measure";

const targets = { score: 95, lcpMs: 2_500, tbtMs: 100 };
const START_TIMEOUT_MS = 60_000;
const repoRoot = resolve(import.meta.dirname, "../..");

/** Every screen measured, in the table's order; `path` is where Lighthouse opens it. */
const screens: { name: string; signedIn: boolean; path: (board: MeasuredBoard) => string }[] = [
  { name: "sign-in", signedIn: false, path: () => "/" },
  { name: "dashboard", signedIn: true, path: () => "/" },
  { name: "meetings", signedIn: true, path: () => "/meetings" },
  { name: "meeting", signedIn: true, path: (board) => `/meetings/${board.meetingId}` },
  { name: "documents", signedIn: true, path: () => "/documents" },
  { name: "resolutions", signedIn: true, path: () => "/resolutions" },
  { name: "board-members", signedIn: true, path: () => "/board-members" },
  { name: "company-settings", signedIn: true, path: () => "/company-settings" },
  { name: "settings", signedIn: true, path: () => "/settings" },
];

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const runs = Number(option("--runs") ?? 3);
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs takes a whole number of at least 1");
const saveDir = option("--save") === undefined ? undefined : resolve(option("--save")!);
const only = option("--only")?.split(",");
const unknown = only?.filter((name) => !screens.some((screen) => screen.name === name)) ?? [];
if (unknown.length > 0) throw new Error(`--only: no screen ${unknown.join(", ")} (screens: ${screens.map((s) => s.name).join(", ")})`);
const chosen = only ? screens.filter((screen) => only.includes(screen.name)) : screens;

function buildIfNeeded(): void {
  const built = existsSync(resolve(repoRoot, "dist/server/index.js")) && existsSync(resolve(repoRoot, "dist/public/index.html"));
  if (built && !process.argv.includes("--build")) return;
  console.log("Building…");
  const result = spawnSync("npm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

/** Each figure's own median over the runs (so a screen's score need not come from the run its timings come from). */
function medians(all: Measure[]): Omit<Measure, "outside"> {
  const middle = (key: keyof Omit<Measure, "outside">) => [...all.map((m) => m[key])].sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
  return {
    score: middle("score"),
    fcp: middle("fcp"),
    lcp: middle("lcp"),
    tbt: middle("tbt"),
    cls: middle("cls"),
    si: middle("si"),
    scriptBytes: middle("scriptBytes"),
    benchmarkIndex: middle("benchmarkIndex"),
  };
}

const columns = ["screen", "score", "FCP", "LCP", "TBT", "CLS", "SI", "script", "host", "all scores"];
const widths = [16, 5, 8, 8, 8, 6, 8, 9, 6, 0];
const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");

function row(name: string, all: Measure[]): string {
  const m = medians(all);
  const ms = (n: number) => `${Math.round(n)} ms`;
  return line([
    name,
    `${m.score}`,
    ms(m.fcp),
    ms(m.lcp),
    ms(m.tbt),
    m.cls.toFixed(3),
    ms(m.si),
    `${(m.scriptBytes / 1024).toFixed(1)} KB`,
    `${m.benchmarkIndex}`,
    all.map((x) => x.score).join(", "),
  ]);
}

/** What a screen's medians miss of the targets, and anything it asked for outside the app. */
function misses(name: string, all: Measure[]): string[] {
  const m = medians(all);
  const found: string[] = [];
  if (m.score < targets.score) found.push(`${name}: score ${m.score}, under ${targets.score}.`);
  if (m.lcp > targets.lcpMs) found.push(`${name}: LCP ${Math.round(m.lcp)} ms, over ${targets.lcpMs} ms.`);
  if (m.tbt > targets.tbtMs) found.push(`${name}: TBT ${Math.round(m.tbt)} ms, over ${targets.tbtMs} ms.`);
  const outside = [...new Set(all.flatMap((x) => x.outside))];
  if (outside.length > 0) found.push(`${name}: asked for something outside the app: ${outside.join(", ")}`);
  return found;
}

async function main(): Promise<number> {
  buildIfNeeded();
  const { baseURL, server } = await startBuiltServer({ cwd: repoRoot, timeoutMs: START_TIMEOUT_MS });
  try {
    const board = await seedMeasuredBoard(baseURL);
    const results: { name: string; all: Measure[] }[] = [];
    for (const screen of chosen) {
      const all: Measure[] = [];
      for (let run = 1; run <= runs; run++) {
        console.log(`Lighthouse: ${screen.name}, run ${run} of ${runs}…`);
        all.push(
          await measure({
            url: `${baseURL}${screen.path(board)}`,
            baseURL,
            token: screen.signedIn ? board.token : undefined,
            saveAs: saveDir && resolve(saveDir, `${screen.name}-${run}.json`),
          }),
        );
      }
      results.push({ name: screen.name, all });
    }

    const { version } = (await import("lighthouse/package.json", { with: { type: "json" } })).default;
    console.log(`\nLighthouse ${version}, mobile, performance: medians of ${runs} run${runs > 1 ? "s" : ""}`);
    console.log(line(columns));
    for (const result of results) console.log(row(result.name, result.all));
    console.log("(host: Lighthouse's CPU benchmark index during the runs; its mobile settings assume 1000 or more)");
    console.log(`(targets: score ≥ ${targets.score}, LCP ≤ ${targets.lcpMs} ms, TBT ≤ ${targets.tbtMs} ms)`);

    const found = results.flatMap((result) => misses(result.name, result.all));
    for (const miss of found) console.error(miss);
    return found.length > 0 ? 1 : 0;
  } finally {
    server.kill("SIGTERM");
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
