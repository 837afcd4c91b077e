// npm run lighthouse: the first load a visitor on a phone gets, as Lighthouse scores it.
//
// Builds the app if there is no build, starts the built server on a free port with an in-memory database,
// registers a user with a company of their own through the API, and runs Lighthouse 12 (performance only,
// its default mobile settings: a mid-range phone on a slow 4G link, simulated) with Debian's Chromium on
// sign-in (signed out) and on the dashboard (signed in). Prints the score and the key timings of each page
// and exits non-zero when a page scores under MIN_SCORE or asked for anything outside this machine.
//
//   npm run lighthouse                 # three runs per page, the median is reported
//   npm run lighthouse -- --runs 1     # quicker
//   npm run lighthouse -- --build      # build again first
//   npm run lighthouse -- --save DIR   # also write each run's full report (JSON) into DIR
//
// Every browser starts with a fresh profile, so each run loads the page with an empty cache. The signed-in
// runs put the session token where the app keeps it (local storage) before Lighthouse opens the page.
import { chromiumPath } from "../testing/chromium";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { startBuiltServer } from "../testing/built-server";

const MIN_SCORE = 95;
const START_TIMEOUT_MS = 60_000;
const repoRoot = resolve(import.meta.dirname, "../..");
/** = AUTH_TOKEN_KEY in client/src/lib/auth-token-key.ts (a client module, outside this script's program): where the app keeps the session token. */
const AUTH_TOKEN_KEY = "quorum.boardSessionToken";
// The machine is closed to the internet: nothing in the background may try to reach it.
const chromeFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const args = process.argv.slice(2);
const runsArg = args.indexOf("--runs");
const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;
if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs takes a whole number of at least 1");
const saveArg = args.indexOf("--save");
const saveDir = saveArg >= 0 ? resolve(args[saveArg + 1] ?? "") : undefined;

interface Measure {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  /** Compressed bytes of script the page downloaded. */
  scriptBytes: number;
  /** Requests to anywhere but the app's own server. */
  outside: string[];
  /**
   * Lighthouse's measure of the host's CPU at the time of the run. Its mobile settings assume about
   * 1000 or more (it warns below that): a busy or slow machine inflates the timings and lowers the score.
   */
  benchmarkIndex: number;
}

class LighthouseRuntimeError extends Error {}

function buildIfNeeded(): void {
  const built = existsSync(resolve(repoRoot, "dist/server/index.js")) && existsSync(resolve(repoRoot, "dist/public/index.html"));
  if (built && !args.includes("--build")) return;
  console.log("Building…");
  const result = spawnSync("npm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

async function api<T>(baseURL: string, method: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A founder whose active company exists, so signing in lands on the dashboard. Answers the session token. */
async function signedInFounder(baseURL: string): Promise<string> {
  const username = `lighthouse${randomBytes(3).toString("hex")}`;
  const { token, id } = await api<{ token: string; id: number }>(baseURL, "POST", "/api/auth/register", {
    username,
    email: `${username}@example.com`,
    password: "board-password-1",
    firstName: "Casey",
    lastName: "Director",
  });
  const company = await api<{ id: number }>(
    baseURL,
    "POST",
    "/api/companies",
    { name: "Lighthouse Ltd", industry: "Technology", location: "London", stage: "seed" },
    token,
  );
  await api(baseURL, "PUT", `/api/users/${id}`, { companyId: company.id }, token);
  return token;
}

/** Puts the token into the fresh browser's local storage, from a page of the app's origin that runs no script. */
async function storeToken(port: number, baseURL: string, token: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(`${baseURL}/favicon.svg`);
    // Runs in the page; the scripts' program has no DOM types, hence the narrow cast.
    await page.evaluate(
      ([key, value]) =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(key, value),
      [AUTH_TOKEN_KEY, token] as const,
    );
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.clearBrowserCache");
    await page.close();
  } finally {
    // Disconnects; the browser Lighthouse drives stays up.
    await browser.close();
  }
}

async function measure(url: string, baseURL: string, token: string | undefined, label: string): Promise<Measure> {
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags });
  try {
    if (token) await storeToken(chrome.port, baseURL, token);
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      // Keeps the stored token; the profile is fresh, so the cache is empty all the same.
      disableStorageReset: token !== undefined,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (saveDir) {
      mkdirSync(saveDir, { recursive: true });
      writeFileSync(resolve(saveDir, `${label}.json`), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new LighthouseRuntimeError(`Lighthouse: ${lhr.runtimeError.code}`);
    const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const requests =
      (lhr.audits["network-requests"]?.details as { items?: { url: string; resourceType?: string; transferSize?: number }[] } | undefined)
        ?.items ?? [];
    const origin = new URL(baseURL).origin;
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: value("first-contentful-paint"),
      lcp: value("largest-contentful-paint"),
      tbt: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
      si: value("speed-index"),
      scriptBytes: requests.filter((r) => r.resourceType === "Script").reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
      outside: requests.map((r) => r.url).filter((address) => !address.startsWith(origin) && !address.startsWith("data:")),
    };
  } finally {
    chrome.kill();
  }
}

/** Lighthouse now and then loses the trace on a busy machine (NO_NAVSTART, NO_FCP): such a run is tried again, twice at most. */
async function measureWithRetry(url: string, baseURL: string, token: string | undefined, label: string): Promise<Measure> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, baseURL, token, label);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof LighthouseRuntimeError)) throw error;
      console.log(`  (${error.message}; trying again)`);
    }
  }
}

/** The run with the median score (its own timings, so they belong together). */
function median(measures: Measure[]): Measure {
  return [...measures].sort((a, b) => a.score - b.score)[Math.floor(measures.length / 2)]!;
}

function row(name: string, m: Measure, all: Measure[]): string {
  const ms = (n: number) => `${Math.round(n)} ms`;
  return [
    name.padEnd(10),
    `${m.score}`.padStart(5),
    ms(m.fcp).padStart(9),
    ms(m.lcp).padStart(9),
    ms(m.tbt).padStart(8),
    m.cls.toFixed(3).padStart(6),
    ms(m.si).padStart(9),
    `${(m.scriptBytes / 1024).toFixed(1)} KB`.padStart(9),
    `${m.benchmarkIndex}`.padStart(6),
    `  ${all.map((x) => x.score).join(", ")}`,
  ].join(" ");
}

async function main(): Promise<number> {
  buildIfNeeded();
  const { baseURL, server } = await startBuiltServer({ cwd: repoRoot, timeoutMs: START_TIMEOUT_MS });
  try {
    const token = await signedInFounder(baseURL);
    const pages = [
      { name: "sign-in", url: `${baseURL}/`, token: undefined },
      { name: "dashboard", url: `${baseURL}/`, token },
    ];
    const results: { name: string; median: Measure; all: Measure[] }[] = [];
    for (const page of pages) {
      const all: Measure[] = [];
      for (let run = 1; run <= runs; run++) {
        process.stdout.write(`Lighthouse: ${page.name}, run ${run} of ${runs}…\n`);
        all.push(await measureWithRetry(page.url, baseURL, page.token, `${page.name}-${run}`));
      }
      results.push({ name: page.name, median: median(all), all });
    }

    console.log(
      `\nLighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, mobile, performance (median of ${runs} run${runs > 1 ? "s" : ""})`,
    );
    console.log("page       score       FCP       LCP      TBT    CLS        SI    script  host   all scores");
    for (const result of results) console.log(row(result.name, result.median, result.all));

    console.log("(host: Lighthouse's CPU benchmark index during that run; its mobile settings assume 1000 or more)");

    let failed = false;
    for (const result of results) {
      if (result.median.score < MIN_SCORE) {
        console.error(`${result.name} scores ${result.median.score}, under ${MIN_SCORE}.`);
        failed = true;
      }
      const outside = [...new Set(result.all.flatMap((m) => m.outside))];
      if (outside.length > 0) {
        console.error(`${result.name} asked for something outside the app: ${outside.join(", ")}`);
        failed = true;
      }
    }
    return failed ? 1 : 0;
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
