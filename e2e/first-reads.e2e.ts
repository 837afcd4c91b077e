import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import * as companiesApi from "../shared/api/companies";
import * as documentsApi from "../shared/api/documents";
import { pathOf } from "../shared/api/endpoint";
import * as meetingsApi from "../shared/api/meetings";
import * as resolutionsApi from "../shared/api/resolutions";
import {
  apiAs,
  AUTH_TOKEN_KEY,
  boardWithMembers,
  memberSession,
  mobile,
  scheduleMeetingThroughApi,
  uniqueName,
  useBrowser,
  useOwnServerWithMail,
} from "./support";

// A link from an e-mail to a signed-in page, opened on a phone by someone signed in: the page's first reads start while
// its code is still on its way, not once it has arrived and rendered (client/src/app/first-reads.ts for the app,
// client/src/app/preloaded-pages.ts for the build's preload script). Over this machine's loopback the code arrives at
// once, so each flow holds script files back until the reads have been asked for (or ten seconds have passed, when
// they were not: then they start late and the flow fails), and compares the requests' start and end times as the page
// itself measured them (its resource timing).

const browser = useBrowser();
const ownServer = useOwnServerWithMail();

/** How long a held script file waits for the reads before it is let through anyway. */
const HOLD_LIMIT_MS = 10_000;

/** The address of a built script, from the build's manifest: the entry (`index.html`) or a module, from client/. */
function builtFile(key: string): string {
  const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, "../dist/public/.vite/manifest.json"), "utf8")) as Record<
    string,
    { file: string }
  >;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the build's manifest has no ${key}`);
  return `/${chunk.file}`;
}

/** The link of a notification mail ("Open in Quorum: …"). */
const linkIn = (text: string) => {
  const link = /Open in Quorum: (\S+)/.exec(text)?.[1];
  if (!link) throw new Error(`no link in the mail: ${text.slice(0, 400)}`);
  return link;
};

interface Opening {
  /** The e-mailed link. */
  link: string;
  /** The session stored in the browser. */
  token: string;
  /** The addresses (path and query) of the page's first reads. */
  reads: string[];
  /** The script files held back until every read has been asked for. */
  held: string[];
  /** The build's preload script is not loaded: the app alone starts the reads. */
  withoutPreloadScript?: boolean;
}

/** A resource's start and end, in milliseconds from the page's navigation. */
type Timing = { startTime: number; responseEnd: number };

/**
 * Opens `link` on a phone with `token` stored, holding `held` back as told. Answers, once `shown` is on the screen, the
 * timing of each read and each held file, and every read request the page made.
 */
async function open(page: Page, opening: Opening, shown: (page: Page) => Promise<unknown>) {
  const requested: string[] = [];
  let readsAskedFor!: () => void;
  const allReadsAskedFor = new Promise<void>((resolve) => (readsAskedFor = resolve));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!opening.reads.includes(url.pathname + url.search)) return;
    requested.push(url.pathname + url.search);
    if (opening.reads.every((read) => requested.includes(read))) readsAskedFor();
  });
  await page.route(
    (url) => opening.held.includes(url.pathname),
    async (route) => {
      let limit: NodeJS.Timeout | undefined;
      await Promise.race([allReadsAskedFor, new Promise((resolve) => (limit = setTimeout(resolve, HOLD_LIMIT_MS)))]);
      clearTimeout(limit);
      await route.continue();
    },
  );
  if (opening.withoutPreloadScript) await page.route(/\/assets\/preload-signed-in-[\w-]+\.js$/, (route) => route.abort());
  await page.addInitScript(([key, token]) => localStorage.setItem(key, token), [AUTH_TOKEN_KEY, opening.token] as const);

  await page.goto(opening.link);
  await shown(page);
  const entries = await page.evaluate(() =>
    (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).map(({ name, startTime, responseEnd }) => ({
      name,
      startTime,
      responseEnd,
    })),
  );
  const timingOf = (address: string): Timing => {
    const entry = entries.find(({ name }) => new URL(name).pathname + new URL(name).search === address);
    if (!entry) throw new Error(`the page has no timing of ${address}`);
    return entry;
  };
  // The script files the build's preload script asked for beside the entry.
  const preloaded = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>('link[data-preload="signed-in"]')].map((link) => new URL(link.href).pathname),
  );
  return {
    requested,
    preloaded,
    reads: Object.fromEntries(opening.reads.map((read) => [read, timingOf(read)])),
    held: Object.fromEntries(opening.held.map((file) => [file, timingOf(file)])),
  };
}

/** Each read that started only once a held file had arrived, with the two timings. */
function readsStartedLate({ reads, held }: { reads: Record<string, Timing>; held: Record<string, Timing> }) {
  return Object.entries(reads).flatMap(([read, timing]) =>
    Object.entries(held)
      .filter(([, file]) => timing.startTime >= file.responseEnd)
      .map(([file, { responseEnd }]) => `${read} started at ${timing.startTime} ms, after ${file} arrived at ${responseEnd} ms`),
  );
}

let meetingOpening: { link: string; title: string; reads: string[] };
let resolutionOpening: { link: string; title: string; reads: string[] };
let director: { token: string };

beforeAll(async () => {
  const board = await boardWithMembers();
  const [member] = board.members;
  director = await memberSession(member!);
  const ofCompany = { companyId: board.companyId };

  const meetingTitle = uniqueName("Strategy day ");
  const meeting = await scheduleMeetingThroughApi(board, {
    title: meetingTitle,
    start: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000),
    participants: [member!],
    notify: true,
  });
  const ofMeeting = { id: meeting.id };
  meetingOpening = {
    link: linkIn((await ownServer.mailTo(member!.email, `/meetings/${meeting.id}`)).text),
    title: meetingTitle,
    // What /meetings/:id asks for first: the meeting, its agenda, and what the meeting page names its people and papers by.
    reads: [
      pathOf(documentsApi.getDocument, ofMeeting),
      pathOf(meetingsApi.getAgenda, ofMeeting),
      pathOf(companiesApi.listMembers, ofCompany),
      pathOf(documentsApi.listLibrary, ofCompany),
      pathOf(resolutionsApi.listResolutions, ofCompany),
      pathOf(companiesApi.getCompanySettings, ofCompany),
    ],
  };

  const resolutionTitle = uniqueName("Adopt the annual accounts ");
  const resolution = await apiAs<{ id: number }>(board.founder, "POST", "/api/resolutions", {
    title: resolutionTitle,
    description: "The board adopts the accounts for the year.",
    type: "Ordinary",
    deadline: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString(),
  });
  resolutionOpening = {
    link: linkIn((await ownServer.mailTo(member!.email, `/resolutions/${resolution.id}`)).text),
    title: resolutionTitle,
    // What /resolutions/:id asks for first: the list, then the routed resolution's details (its vote dialog reads them).
    reads: [pathOf(resolutionsApi.listResolutions, ofCompany), pathOf(resolutionsApi.getResolution, { id: resolution.id })],
  };
});

const meetingShown = (page: Page) => page.getByRole("heading", { level: 1, name: meetingOpening.title }).waitFor();
const voteShown = (page: Page) => page.getByRole("dialog", { name: "Cast Your Vote" }).getByText(resolutionOpening.title).waitFor();

describe("a page opened signed in by its e-mailed link", () => {
  it("/meetings/:id: the build's preload script asks for the meeting's reads before the app's entry and the meeting's code have arrived", async () => {
    const { page } = await browser.openPage(mobile);
    expect(new URL(meetingOpening.link).pathname).toMatch(/^\/meetings\/\d+$/);
    const held = [builtFile("index.html"), builtFile("src/app/routes/meeting-detail.tsx")];
    const opened = await open(page, { ...meetingOpening, token: director.token, held }, meetingShown);
    expect(readsStartedLate(opened)).toEqual([]);
    // The meeting's code too, at its address with an id.
    expect(opened.preloaded).toContain(builtFile("src/app/routes/meeting-detail.tsx"));
    // The app takes those answers instead of asking again.
    expect(opened.requested.sort()).toEqual([...meetingOpening.reads].sort());
  });

  it("/meetings/:id without the preload script: the app asks for the meeting's reads before the meeting's code has arrived", async () => {
    const { page } = await browser.openPage(mobile);
    const held = [builtFile("src/app/routes/meeting-detail.tsx")];
    const opened = await open(page, { ...meetingOpening, token: director.token, held, withoutPreloadScript: true }, meetingShown);
    expect(readsStartedLate(opened)).toEqual([]);
    // The page's own queries find them asked for.
    expect(opened.requested.sort()).toEqual([...meetingOpening.reads].sort());
  });

  it("/resolutions/:id: the build's preload script asks for the resolution's reads before the app's entry and the page's code have arrived", async () => {
    const { page } = await browser.openPage(mobile);
    expect(new URL(resolutionOpening.link).pathname).toMatch(/^\/resolutions\/\d+$/);
    const held = [builtFile("index.html"), builtFile("src/app/routes/resolutions.tsx")];
    const opened = await open(page, { ...resolutionOpening, token: director.token, held }, voteShown);
    expect(readsStartedLate(opened)).toEqual([]);
    expect(opened.preloaded).toContain(builtFile("src/app/routes/resolutions.tsx"));
    expect(opened.requested.sort()).toEqual([...resolutionOpening.reads].sort());
  });

  it("/resolutions/:id without the preload script: the app asks for the resolution's reads before the page's code has arrived", async () => {
    const { page } = await browser.openPage(mobile);
    const held = [builtFile("src/app/routes/resolutions.tsx")];
    const opened = await open(page, { ...resolutionOpening, token: director.token, held, withoutPreloadScript: true }, voteShown);
    expect(readsStartedLate(opened)).toEqual([]);
    expect(opened.requested.sort()).toEqual([...resolutionOpening.reads].sort());
  });
});
