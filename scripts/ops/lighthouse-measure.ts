// One Lighthouse run of `npm run lighthouse`: a fresh Chromium profile (so an empty cache), the session token put where the
// app keeps it when the screen is a signed-in one, then Lighthouse 12's performance category with its default mobile settings.
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium } from "playwright-core";
import { chromiumPath } from "../testing/chromium";

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

export interface Measure {
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

export interface Run {
  url: string;
  baseURL: string;
  /** The session token for a signed-in screen. */
  token?: string;
  /** Where to write the full report (JSON), if anywhere. */
  saveAs?: string;
}

class LighthouseRuntimeError extends Error {}

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

async function measureOnce({ url, baseURL, token, saveAs }: Run): Promise<Measure> {
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
    if (saveAs) {
      mkdirSync(resolve(saveAs, ".."), { recursive: true });
      writeFileSync(saveAs, JSON.stringify(lhr));
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
export async function measure(run: Run): Promise<Measure> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measureOnce(run);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof LighthouseRuntimeError)) throw error;
      console.log(`  (${error.message}; trying again)`);
    }
  }
}
