// The reader part of `npm run bench`: the board pack of bench-board-pack.ts (about 250 pages, already built and
// stored) opened in the app's reader in Chromium, from the navigation to its first page drawn, with the bytes of the
// pack the browser had received by then. The reader asks for byte ranges, so the first page needs only the file's
// end (its cross-reference) and the objects of that page, not the whole pack.
import { existsSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { chromiumLaunchOptions, chromiumPath } from "../testing/chromium";
import { ensureBuiltApp } from "./bench-lists";
import type { PackSeed } from "./bench-board-pack";

export const readerPartName = "pack in the reader";
const targets = { firstPageMs: 1_500, shareOfFile: 0.25 };
/** = AUTH_TOKEN_KEY in client/src/lib/auth-token-key.ts (a client module, outside this script's program). */
const AUTH_TOKEN_KEY = "quorum.boardSessionToken";
/** The reader marks a page's element once its canvas is drawn. */
const firstPageDrawn = '[data-page="1"][data-drawn="true"]';
const assetsDir = resolve(import.meta.dirname, "../../dist/public/assets");

interface Opening {
  firstPageMs: number;
  packBytes: number;
  requests: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Opens the pack in the reader once (the app's own files already cached by an earlier visit). */
async function open(browser: Browser, base: string, token: string, meetingId: number): Promise<Opening> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: base });
  try {
    await context.addInitScript(`try { localStorage.setItem(${JSON.stringify(AUTH_TOKEN_KEY)}, ${JSON.stringify(token)}); } catch {}`);
    const page = await context.newPage();
    // A returning director: the app's own files (its chunks, pdf.js and its worker) are in the browser's cache, so
    // the figure is the pack's, not a first visit's.
    await page.goto("/", { waitUntil: "load" });
    const assets = readdirSync(assetsDir).filter((name) => /\.(m?js|css)$/.test(name));
    await page.evaluate(`Promise.all(${JSON.stringify(assets.map((name) => `/assets/${name}`))}.map((url) => fetch(url)))`);
    // Within the app, as a director opens it from the meeting: the address changes and the router follows. The page
    // itself notes when the reader opened and when its first page was drawn (no polling delay in the figure).
    const path = JSON.stringify(`/meetings/${meetingId}/pack`);
    await page.evaluate(`(() => {
      window.__openedAt = performance.now();
      new MutationObserver((_, observer) => {
        if (!document.querySelector(${JSON.stringify(firstPageDrawn)})) return;
        window.__firstPageAt = performance.now();
        observer.disconnect();
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-drawn"] });
      history.pushState(null, "", ${path});
      dispatchEvent(new PopStateEvent("popstate"));
    })()`);
    await page.locator(firstPageDrawn).waitFor({ timeout: 60_000 });
    // The pack's bytes whose responses had arrived when the first page was drawn, by the browser's own account.
    const [openedAt, drawnAt, responses] = (await page.evaluate(`[window.__openedAt, window.__firstPageAt,
      performance.getEntriesByType("resource").filter((entry) => entry.name.includes("/board-pack.pdf"))
        .map((entry) => [entry.startTime, entry.responseEnd, entry.encodedBodySize])]`)) as [number, number, [number, number, number][]];
    const byThen = responses.filter(([, end]) => end <= drawnAt);
    const packBytes = byThen.reduce((sum, [, , bytes]) => sum + bytes, 0);
    const firstPageMs = drawnAt - openedAt;
    return { firstPageMs, packBytes, requests: byThen.length };
  } finally {
    await context.close();
  }
}

export async function measureReader(server: { base: string }, seed: PackSeed, runs: number): Promise<{ within: boolean; lines: string[] }> {
  if (!existsSync(chromiumPath)) {
    return { within: true, lines: [`The pack in the reader: not measured, no Chromium at ${chromiumPath}.`] };
  }
  ensureBuiltApp();
  const { meetingId, token } = seed.packs[0]!;
  // Built and stored before it is opened: the figure is the reader's, not the build's.
  const whole = await fetch(`${server.base}/api/meetings/${meetingId}/board-pack.pdf`, { headers: { authorization: `Bearer ${token}` } });
  if (whole.status !== 200) throw new Error(`reader: the pack answered ${whole.status}`);
  const packFile = Buffer.from(await whole.arrayBuffer());
  const fileBytes = packFile.byteLength;
  const browser = await chromium.launch(chromiumLaunchOptions);
  const openings: Opening[] = [];
  try {
    for (let run = 0; run < runs; run += 1) openings.push(await open(browser, server.base, token, meetingId));
  } finally {
    await browser.close();
  }
  const firstPageMs = median(openings.map((run) => run.firstPageMs));
  const packBytes = median(openings.map((run) => run.packBytes));
  const share = packBytes / fileBytes;
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  console.log(`  reader: first page ${firstPageMs} ms, ${kb(packBytes)} of ${kb(fileBytes)} received`);
  return {
    within: firstPageMs < targets.firstPageMs && share < targets.shareOfFile,
    lines: [
      `The pack in the reader (the board pack above, ${kb(fileBytes)}, opened in the app's reader at 1280 px; medians of ${runs}): first ` +
        `page drawn ${firstPageMs.toFixed(0)} ms after opening, with ${kb(packBytes)} of the pack received (${(share * 100).toFixed(1)}% ` +
        `of the file, in ${Math.max(...openings.map((run) => run.requests))} requests at most); targets under ${targets.firstPageMs / 1000} s and ` +
        `${targets.shareOfFile * 100}%.`,
    ],
  };
}
