// The lists part of `npm run bench`: ten years of a board's papers in one company (3,000 documents, 1,000
// resolutions, 300 meetings) seeded straight into the database, then the built app in Chromium at 1280 px and at
// 375 px on each list screen: the elements in the document, the time from navigation to the first rows, and the
// time from a key pressed in the search box to the list shown updated.
import { insertBoard } from "./bench-seed";
import { spawnSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { sql } from "drizzle-orm";
import { chromium, type Browser, type Page } from "playwright-core";
import { chromiumLaunchOptions, chromiumPath } from "../testing/chromium";
import { uploadCategories } from "../../shared/documents";
import { meetingCategory, meetingFileType, meetingLengthMs, meetingNamePrefix } from "../../shared/meeting-model";
import { resolutionTypes } from "../../shared/resolutions";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { documentFiles, documents, meetingParticipants, meetings, resolutions } from "../../server/src/db/schema";
import { createSession } from "../../server/src/http/session";
import { defaultLimits } from "../../server/src/limits";

const DOCUMENTS = 3_000;
const RESOLUTIONS = 1_000;
const MEETINGS = 300;
/** Of the resolutions, these many are still open (deadline ahead) and these many expired unvoted; the rest are decided. */
const PENDING = 40;
const EXPIRED = 60;
/** Of the meetings, these many are still to come. */
const UPCOMING = 12;
const PEOPLE = 6;
const YEARS = 10;
const targets = { domNodes: 3_000, firstRowsMs: 1_000, searchMs: 100 };

const repoRoot = resolve(import.meta.dirname, "../..");
/** = AUTH_TOKEN_KEY in client/src/lib/auth-token-key.ts (a client module, outside this script's program). */
const AUTH_TOKEN_KEY = "quorum.boardSessionToken";
const widths = [
  { label: "1280", viewport: { width: 1280, height: 800 } },
  { label: "375", viewport: { width: 375, height: 740 } },
] as const;

const day = 24 * 60 * 60 * 1000;
const span = YEARS * 365 * day;
const fileTypes = [
  { extension: "pdf", type: "application/pdf" },
  { extension: "docx", type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  { extension: "png", type: "image/png" },
] as const;
const topics = ["Quarterly accounts", "Board pack", "Risk register", "Audit report", "Hiring plan", "Lease", "Strategy", "Budget"];

export interface ListsSeed {
  companyId: number;
  token: string;
}

async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>, size = 1_000): Promise<void> {
  for (let from = 0; from < rows.length; from += size) await insert(rows.slice(from, from + size));
}

/**
 * A company of its own (so the other parts' figures see the data they always saw): six directors, ten years of
 * documents (each with a stored file's row, so the list offers its download), resolutions mostly decided, meetings
 * mostly past. Answers the founder's session token. Runs `ANALYZE` after, as a database in service would have.
 */
export async function seedLists(databaseUrl: string): Promise<ListsSeed> {
  const handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
  const db = handle.db;
  try {
    const { companyId, people } = await insertBoard(db, {
      name: "Decade Holdings",
      stage: "growth",
      handle: "decade",
      firstName: "Director",
      lastName: "Decade",
      people: PEOPLE,
      roleOf: (i) => (i === 0 ? "founder" : "member"),
    });
    const founderId = people[0]!.id;
    const token = await createSession(db, systemClock, founderId, "bench", { maxPerUser: defaultLimits.sessionsPerUser });
    const now = Date.now();

    // Newest first in the list: number 3000 is the newest, number 1 ten years old.
    const papers = await db
      .insert(documents)
      .values(
        Array.from({ length: DOCUMENTS }, (_, i) => {
          const file = fileTypes[i % fileTypes.length]!;
          return {
            companyId,
            name: `${topics[i % topics.length]} no. ${i + 1}.${file.extension}`,
            fileType: file.type,
            fileSize: 20_000 + ((i * 7919) % 2_000_000),
            category: uploadCategories[i % uploadCategories.length]!,
            description: `Paper ${i + 1} of the board's library`,
            uploadedBy: people[i % PEOPLE]!.id,
            createdAt: new Date(now - span + (i * span) / DOCUMENTS),
          };
        }),
      )
      .returning({ id: documents.id });
    await inBatches(
      papers.map(({ id }) => ({
        documentId: id,
        storage: "database" as const,
        storageKey: randomUUID(),
        sha256: createHash("sha256").update(String(id)).digest("hex"),
      })),
      (batch) => db.insert(documentFiles).values(batch),
    );

    const meetingStarts = Array.from({ length: MEETINGS }, (_, i) => now - span + ((i + 1) * (span + UPCOMING * 14 * day)) / MEETINGS);
    const meetingDocs = await db
      .insert(documents)
      .values(
        meetingStarts.map((start, i) => ({
          companyId,
          name: `${meetingNamePrefix}Board meeting ${i + 1}`,
          fileType: meetingFileType,
          category: meetingCategory,
          uploadedBy: founderId,
          createdAt: new Date(start - 30 * day),
        })),
      )
      .returning({ id: documents.id });
    await db.insert(meetings).values(
      meetingDocs.map(({ id }, i) => ({
        documentId: id,
        companyId,
        title: `Board meeting ${i + 1}`,
        startsAt: new Date(meetingStarts[i]!),
        endsAt: new Date(meetingStarts[i]! + meetingLengthMs),
        location: i % 3 === 0 ? "Virtual (Zoom) https://zoom.us/j/123456789" : "Boardroom, 1 King Street, London",
        status: "confirmed" as const,
        createdBy: founderId,
        createdAt: new Date(meetingStarts[i]! - 30 * day),
      })),
    );
    await db
      .insert(meetingParticipants)
      .values(meetingDocs.flatMap(({ id }) => people.map((person) => ({ meetingId: id, userId: person.id }))));

    await inBatches(
      Array.from({ length: RESOLUTIONS }, (_, i) => {
        const createdAt = now - span + (i * span) / RESOLUTIONS;
        const open = i >= RESOLUTIONS - PENDING;
        const expired = !open && i >= RESOLUTIONS - PENDING - EXPIRED;
        const approved = i % 5 !== 0;
        return {
          companyId,
          title: `Resolution ${i + 1}: ${topics[i % topics.length]}`,
          description: `That the board approves item ${i + 1} of its agenda, as set out in the paper circulated with it.`,
          type: resolutionTypes[i % resolutionTypes.length]!,
          status: open || expired ? ("pending" as const) : approved ? ("approved" as const) : ("rejected" as const),
          deadline: new Date(open ? now + (i - (RESOLUTIONS - PENDING) + 1) * day : createdAt + 14 * day),
          decidedAt: open || expired ? null : new Date(createdAt + 14 * day),
          explanation: open || expired ? null : approved ? "Approved: 5 yes, 1 no (more yes than no)." : "Rejected: 2 yes, 4 no.",
          createdBy: people[i % PEOPLE]!.id,
          createdAt: new Date(createdAt),
        };
      }),
      (batch) => db.insert(resolutions).values(batch),
    );
    await db.execute(sql`analyze`);
    return { companyId, token };
  } finally {
    await handle.close();
  }
}

// --- The built app ---

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) if (entry !== "node_modules") newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The app as `npm run build` makes it (dist/public), built first when missing or older than its sources (as `npm start` decides). */
export function ensureBuiltApp(): void {
  const index = join(repoRoot, "dist/public/index.html");
  const sources = ["client", "shared", "package-lock.json", "vite.config.ts", "scripts/build"].map((path) => join(repoRoot, path));
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  console.log("bench: building the app (npm run build)…");
  const result = spawnSync("npm", ["run", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status})`);
}

// --- Measuring in the browser ---

interface Screen {
  name: string;
  path: string;
  /** The list's own read (a resource's address ends so). */
  read: RegExp;
  search: string;
  /** The tab measured, when the screen opens on a shorter one: its name, and its list's. */
  tab?: string;
  list: string;
  /** A key that changes the list (every item is numbered). */
  key: string;
}

const screens: Screen[] = [
  {
    name: "Documents",
    path: "/documents",
    read: /\/api\/companies\/\d+\/documents$/,
    search: "Search documents",
    list: "Documents",
    key: "7",
  },
  {
    name: "Resolutions",
    path: "/resolutions",
    read: /\/api\/companies\/\d+\/resolutions$/,
    search: "Search resolutions",
    tab: "Completed",
    list: "Completed resolutions",
    key: "7",
  },
  {
    name: "Meetings",
    path: "/meetings",
    read: /\/api\/documents\?category=Meeting$/,
    search: "Search meetings",
    tab: "Past",
    list: "Past meetings",
    key: "7",
  },
];

// In-page code is given as text: the scripts' program has no DOM types.
/** From the document's start: the time (ms since navigation began) of the first frame with a row of a list in the page's main part. */
const firstRowsScript = `
  window.__firstRows = new Promise((resolve) => {
    const found = () => document.querySelector('main [role="list"] [role="listitem"]');
    const observer = new MutationObserver(() => {
      if (!found()) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now()));
    });
    observer.observe(document, { childList: true, subtree: true });
  });
`;

/**
 * Armed before a key is pressed: the time from the key's event to the first frame after the list below changed.
 * (`void`: evaluating the assignment would answer the promise, which evaluate would wait for.)
 */
const armSearchScript = (list: string) => `
  void (window.__searched = new Promise((resolve) => {
    let start = null;
    addEventListener("keydown", (event) => { start = event.timeStamp; }, { capture: true, once: true });
    const observer = new MutationObserver(() => {
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
    });
    observer.observe(document.querySelector('[role="list"][aria-label="${list}"]').parentElement, { childList: true, subtree: true, characterData: true });
  }));
`;

/** When (ms since navigation began) the answer of the list's read had arrived. */
const readEndScript = (read: RegExp) => `(() => {
  const entry = performance.getEntriesByType("resource").find((candidate) => ${read.toString()}.test(candidate.name));
  return entry ? entry.responseEnd : null;
})()`;

/** Armed before the link is clicked: the time from the click on a link to `path` to the first frame with a row of the screen's list. */
const armNavigationScript = (path: string) => `
  void (window.__navigated = new Promise((resolve) => {
    let start = null;
    const onClick = (event) => {
      if (!event.target.closest('a[href="${path}"]')) return;
      start = event.timeStamp;
      removeEventListener("click", onClick, true);
    };
    addEventListener("click", onClick, true);
    const observer = new MutationObserver(() => {
      if (start === null || !document.querySelector('main [role="list"] [role="listitem"]')) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - start));
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }));
`;

const countScript = (list: string) => `(() => {
  const rows = document.querySelectorAll('[role="list"][aria-label="${list}"] [role="listitem"]');
  return { nodes: document.getElementsByTagName("*").length, rows: rows.length, total: Number(rows[0]?.getAttribute("aria-setsize") ?? 0) };
})()`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

interface Figures {
  screen: string;
  width: string;
  nodes: number;
  rows: number;
  total: number;
  /** Opened from the dashboard's navigation: the click to the first rows. */
  navigationMs: number;
  /** Loaded cold (a fresh browser profile): navigation start to the list's answer, and to the first rows. */
  readMs: number;
  firstRowsMs: number;
  searchMs: number;
}

async function settle(page: Page): Promise<void> {
  await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
  await page.waitForTimeout(300);
}

/** One navigation to the screen in a fresh browser context (nothing cached): its figures, search included when asked. */
async function visit(
  browser: Browser,
  base: string,
  token: string,
  screen: Screen,
  viewport: { width: number; height: number },
  searches: number,
) {
  const context = await browser.newContext({ viewport, baseURL: base });
  try {
    await context.addInitScript(`try { localStorage.setItem(${JSON.stringify(AUTH_TOKEN_KEY)}, ${JSON.stringify(token)}); } catch {}`);
    await context.addInitScript(firstRowsScript);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(screen.path, { waitUntil: "commit" });
    const firstRowsMs = (await page.evaluate("window.__firstRows")) as number;
    const readMs = ((await page.evaluate(readEndScript(screen.read))) as number | null) ?? Number.NaN;
    if (screen.tab) await page.getByRole("tab", { name: screen.tab }).click();
    const list = page.getByRole("list", { name: screen.list });
    await list.getByRole("listitem").first().waitFor();
    await settle(page);
    const counted = (await page.evaluate(countScript(screen.list))) as { nodes: number; rows: number; total: number };

    const searchBox = page.getByRole("searchbox", { name: screen.search });
    await searchBox.focus();
    const timings: number[] = [];
    for (let run = 0; run < searches; run += 1) {
      for (const key of [screen.key, "Backspace"]) {
        await page.evaluate(armSearchScript(screen.list));
        await page.keyboard.press(key);
        const ms = (await page.evaluate("window.__searched")) as number;
        if (key !== "Backspace") timings.push(ms);
        await settle(page);
      }
    }
    if (searches > 0) {
      // The search did what it says: after the key, every row shown holds it.
      await page.keyboard.press(screen.key);
      await settle(page);
      const shown = await list.getByRole("listitem").allTextContents();
      if (shown.length === 0 || shown.some((text) => !text.includes(screen.key)))
        throw new Error(`${screen.name}: the search for "${screen.key}" did not filter the list`);
    }
    if (errors.length > 0) throw new Error(`${screen.name}: script errors in the page: ${errors.join("; ")}`);
    return { ...counted, firstRowsMs, readMs, searchMs: timings.length > 0 ? median(timings) : 0 };
  } finally {
    await context.close();
  }
}

/** The dashboard loaded in a fresh context, then the screen opened from its navigation (the phone's menu at 375 px). */
async function openFromDashboard(
  browser: Browser,
  base: string,
  token: string,
  screen: Screen,
  viewport: { width: number; height: number },
) {
  const context = await browser.newContext({ viewport, baseURL: base });
  try {
    await context.addInitScript(`try { localStorage.setItem(${JSON.stringify(AUTH_TOKEN_KEY)}, ${JSON.stringify(token)}); } catch {}`);
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await settle(page);
    const navigation = page.getByRole("navigation", { name: "Main" });
    let menu = navigation;
    if (!(await navigation.isVisible())) {
      await page.getByRole("button", { name: "Open menu" }).click();
      menu = page.getByRole("dialog");
    }
    const link = menu.locator(`a[href="${screen.path}"]`);
    await link.waitFor();
    await page.evaluate(armNavigationScript(screen.path));
    await link.click();
    return (await page.evaluate("window.__navigated")) as number;
  } finally {
    await context.close();
  }
}

function table(rows: Figures[]): string {
  const lines = [
    "| Screen | width px | elements in the page | rows rendered / listed | first rows from the dashboard ms | cold load: list answered / first rows ms | search ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  const ms = (value: number) => value.toFixed(0);
  for (const row of rows) {
    lines.push(
      `| ${row.screen} | ${row.width} | ${row.nodes} | ${row.rows} / ${row.total} | ${ms(row.navigationMs)} | ${ms(row.readMs)} / ${ms(row.firstRowsMs)} | ${ms(row.searchMs)} |`,
    );
  }
  return lines.join("\n");
}

/**
 * Seeds the company, builds the app if needed, and measures each screen at each width against a running server:
 * navigations in fresh contexts (the first warms the server up; the median of `runs` after it is reported) and
 * `runs` keys typed into the search. Answers the lines to print and whether every figure is within its target;
 * without Chromium, a line that says so.
 */
export async function measureLists(
  server: { base: string },
  databaseUrl: string,
  runs: number,
): Promise<{ within: boolean; lines: string[] }> {
  if (!existsSync(chromiumPath)) {
    return {
      within: true,
      lines: [`Lists at scale: not measured, no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH).`],
    };
  }
  ensureBuiltApp();
  const index = await fetch(`${server.base}/documents`);
  if (!(index.headers.get("content-type") ?? "").includes("text/html"))
    throw new Error("lists: the server does not serve the built app (dist/public)");
  const { token } = await seedLists(databaseUrl);
  // As the browser tests launch it: nothing in the background reaches outside this machine.
  const browser = await chromium.launch(chromiumLaunchOptions);
  const rows: Figures[] = [];
  try {
    for (const screen of screens) {
      for (const { label, viewport } of widths) {
        await visit(browser, server.base, token, screen, viewport, 0);
        const visits = [];
        const navigations = [];
        for (let run = 0; run < runs; run += 1) {
          visits.push(await visit(browser, server.base, token, screen, viewport, run === 0 ? runs : 0));
          navigations.push(await openFromDashboard(browser, server.base, token, screen, viewport));
        }
        const figures: Figures = {
          screen: screen.name,
          width: label,
          nodes: Math.max(...visits.map((run) => run.nodes)),
          rows: Math.max(...visits.map((run) => run.rows)),
          total: visits[0]!.total,
          navigationMs: median(navigations),
          readMs: median(visits.map((run) => run.readMs)),
          firstRowsMs: median(visits.map((run) => run.firstRowsMs)),
          searchMs: visits[0]!.searchMs,
        };
        console.log(
          `  lists: ${screen.name} at ${label} px: ${figures.nodes} elements, ${figures.rows} of ${figures.total} rows, ` +
            `first rows ${figures.navigationMs.toFixed(0)} ms from the dashboard, ${figures.firstRowsMs.toFixed(0)} ms cold (list answered at ` +
            `${figures.readMs.toFixed(0)} ms), search ${figures.searchMs.toFixed(0)} ms`,
        );
        rows.push(figures);
      }
    }
  } finally {
    await browser.close();
  }
  // The first rows' target is for a screen opened in the app; a cold load adds the app's own first load (see First load).
  const within = rows.every(
    (row) => row.nodes < targets.domNodes && row.navigationMs < targets.firstRowsMs && row.searchMs < targets.searchMs,
  );
  return {
    within,
    lines: [
      `Lists at scale (one company: ${DOCUMENTS} documents, ${RESOLUTIONS} resolutions, ${MEETINGS} meetings; the built app in Chromium; ` +
        `Resolutions on its Completed tab, Meetings on Past; elements: the most of ${runs} loads, times: medians of ${runs}; targets under ` +
        `${targets.domNodes} elements, first rows from the dashboard under ${targets.firstRowsMs} ms, search under ${targets.searchMs} ms):`,
      "",
      table(rows),
    ],
  };
}
