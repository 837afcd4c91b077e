import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { Response } from "playwright-core";
import { baseURL, createActiveCompany, registerAccount } from "./set-up";
import { AUTH_TOKEN_KEY, useBrowser } from "./support";

const browser = useBrowser();

// What a visitor on a phone downloads before they can sign in. It was 145 KB until the sign-in page
// stopped loading the form's validation, the toaster and the signed-in route table up front (115 KB
// after); the budget leaves room for small growth but catches a heavy library landing on the sign-in
// page (Radix Select and its positioning library alone add 24 KB).
const FIRST_LOAD_SCRIPT_BUDGET_KB = 130;
// A founder's first load of the dashboard with a session stored: the sign-in bundle, the signed-in shell and the
// dashboard. It was 240 KB in about 25 files until the dashboard's first load stopped pulling in the validation
// library (27 KB) and its small shared files were grouped; 177 KB in 6 files after (the sixth is the 0.4 KB
// script that starts the shell's download when a token is stored). The budget was 185 KB until the dropdown menus
// and the phone's slide-over menu (Radix's menu, positioning library and dialog) came to load when first opened and
// the date library left the first load: 139 KB after, which leaves room for the shell to grow a little. 149 KB since the
// preload script (2 KB now) prepares every signed-in page at its address, not the dashboard alone, and the entry starts
// each page's first reads (client/src/app/first-reads.ts, 1.6 KB).
const DASHBOARD_SCRIPT_BUDGET_KB = 150;
// Each file waits for one of the six connections a browser opens to one server over HTTP/1.1.
const DASHBOARD_SCRIPT_FILES = 6;
// What opening one page adds, once signed in. It was 60 KB until Radix's positioning library and dialog and the
// date library left the signed-in shell (the menus and the phone's slide-over load them when first opened): a page
// that uses them now downloads them itself, up to 33 KB more (resolutions, with a select, dialogs and date fields:
// 52 KB before, 85 KB after), and the list windowing of the long lists 6 KB more (resolutions: 92 KB).
const ROUTE_CHUNK_BUDGET_KB = 95;
// The most any one script file but the entry may weigh.
const FILE_BUDGET_KB = 60;
// pdf.js, the reader's PDF library: one prebuilt module of about 121 KB that cannot be split, loaded on demand by the
// reader alone (never by a page's first load, which the budgets above hold), so it is held to a budget of its own.
const PDFJS_BUDGET_KB = 130;

const publicDir = resolve(import.meta.dirname, "../dist/public");

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}

/** Vite's build manifest: every chunk, by source, with the chunks it imports. */
function readManifest(): Record<string, ManifestChunk> {
  return JSON.parse(readFileSync(resolve(publicDir, ".vite/manifest.json"), "utf8")) as Record<string, ManifestChunk>;
}

/** A script file's size as the server sends it: gzip at the compression middleware's default level. */
function gzipKb(file: string): number {
  return gzipSync(readFileSync(resolve(publicDir, file))).length / 1024;
}

/** The chunk and every chunk it imports statically, transitively (what the browser loads with it). */
function withImports(manifest: Record<string, ManifestChunk>, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) withImports(manifest, imported, into);
  return into;
}

describe("the first load", () => {
  it(`sends the sign-in page with at most ${FIRST_LOAD_SCRIPT_BUDGET_KB} KB of compressed JavaScript`, async () => {
    const { page } = await browser.openPage();
    const scripts: Response[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response);
    });

    await page.goto("/");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await page.waitForLoadState("networkidle");

    const sizes = await Promise.all(
      // The body as sent: compressed, except files too small for the server to bother.
      scripts.map(async (response) => (await response.request().sizes()).responseBodySize),
    );
    const totalKb = sizes.reduce((sum, size) => sum + size, 0) / 1024;
    expect(scripts.length).toBeGreaterThan(0);
    expect(totalKb).toBeLessThanOrEqual(FIRST_LOAD_SCRIPT_BUDGET_KB);
    // Without a token stored, the signed-in shell is not preloaded.
    expect(scripts.map((response) => new URL(response.url()).pathname).filter((path) => path.startsWith("/assets/signed-in-"))).toEqual([]);
  });

  it(`sends a signed-in dashboard with at most ${DASHBOARD_SCRIPT_BUDGET_KB} KB of compressed JavaScript in ${DASHBOARD_SCRIPT_FILES} files, without the validation library`, async () => {
    const founder = await registerAccount();
    const company = await createActiveCompany(founder, { name: "First Load Ltd", location: "London" });
    const { page } = await browser.openPage();
    await page.addInitScript(([key, token]) => localStorage.setItem(key, token), [AUTH_TOKEN_KEY, founder.token] as const);
    const scripts: Response[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response);
    });
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));

    await page.goto("/");
    await page.getByRole("heading", { name: "Compliance Health" }).waitFor();
    // With a token stored, the preload script asked for the shell's three files and the dashboard's beside the
    // entry. (Which of its requests and the entry's goes out first is the browser's choice, so the test reads the
    // links it added rather than the order of requests.)
    const preloaded = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[data-preload="signed-in"]')].map((link) => new URL(link.href).pathname),
    );
    expect(preloaded.map((path) => path.replace(/-[\w-]{8}\.js$/, ""))).toEqual([
      "/assets/signed-in",
      "/assets/shared-with-sign-in",
      "/assets/icons",
      "/assets/dashboard",
    ]);
    for (const path of preloaded) expect(requested).toContain(path);
    // The app takes the preload script's request for the current user instead of asking again.
    expect(
      requested.filter((path) => path === "/api/auth/user"),
      requested.join(", "),
    ).toHaveLength(1);
    // Once that answer named the company, the preload script asked for the dashboard's first reads too; the app
    // takes those answers as well (vite.config.ts lists the reads, client/src/app/dashboard-reads.ts the app's).
    for (const read of ["compliance", "resolutions/pending", "meetings/upcoming", "documents/recent"]) {
      const address = `/api/companies/${company.id}/${read}`;
      expect(
        requested.filter((path) => path === address),
        requested.join(", "),
      ).toHaveLength(1);
    }
    await page.waitForLoadState("networkidle");

    const sizes = await Promise.all(scripts.map(async (response) => (await response.request().sizes()).responseBodySize));
    const totalKb = sizes.reduce((sum, size) => sum + size, 0) / 1024;
    const files = scripts.map((response) => new URL(response.url()).pathname);
    expect(totalKb, `scripts: ${files.join(", ")}`).toBeLessThanOrEqual(DASHBOARD_SCRIPT_BUDGET_KB);
    expect(files.length, `scripts: ${files.join(", ")}`).toBeLessThanOrEqual(DASHBOARD_SCRIPT_FILES);
    // zod's schema classes carry this name in every build; the forms that need them load when opened.
    const bodies = await Promise.all(scripts.map((response) => response.text()));
    expect(files.filter((_, index) => bodies[index]!.includes("$ZodType"))).toEqual([]);
  });

  it(`adds at most ${ROUTE_CHUNK_BUDGET_KB} KB of compressed JavaScript per page opened, and no script file weighs more than ${FILE_BUDGET_KB} KB`, () => {
    const manifest = readManifest();
    const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
    // The shell is grouped with what the home page shares with other pages into one chunk (vite.config.ts).
    const shell = Object.keys(manifest).find((key) => manifest[key]!.name === "signed-in");
    const routes = Object.keys(manifest).filter((key) => /app\/routes\/[^/]+\.tsx$/.test(key));
    expect(entry && shell && routes.length > 10, "the manifest lists the entry, the signed-in shell and the routes").toBe(true);

    // Already there when a page opens: the sign-in bundle and, signed in, the shell.
    const loaded = withImports(manifest, shell!, withImports(manifest, entry!));
    const added = Object.fromEntries(
      routes.map((route) => {
        const files = [...withImports(manifest, route)].filter((key) => key === route || !loaded.has(key));
        return [route, Math.round(files.reduce((sum, key) => sum + gzipKb(manifest[key]!.file), 0) * 10) / 10];
      }),
    );
    const overBudget = Object.entries(added).filter(([, kb]) => kb > ROUTE_CHUNK_BUDGET_KB);
    expect(overBudget, `what each page adds (KB): ${JSON.stringify(added)}`).toEqual([]);

    // pdf.js comes only on demand: no chunk imports it, so no page's first load holds it.
    const pdfjs = Object.keys(manifest).find((key) => key.endsWith("features/reader/lib/pdfjs-source.ts"));
    expect(pdfjs, "the manifest lists the reader's pdf.js chunk").toBeDefined();
    expect(Object.keys(manifest).filter((key) => manifest[key]!.imports?.includes(pdfjs!))).toEqual([]);
    expect(gzipKb(manifest[pdfjs!]!.file)).toBeLessThanOrEqual(PDFJS_BUDGET_KB);

    // The entry is held to the sign-in budget above, pdf.js to its own; every other file to the file budget.
    const heavyFiles = Object.keys(manifest)
      .filter((key) => key !== entry && key !== pdfjs && manifest[key]!.file.endsWith(".js"))
      .map((key) => [manifest[key]!.file, Math.round(gzipKb(manifest[key]!.file) * 10) / 10] as const)
      .filter(([, kb]) => kb > FILE_BUDGET_KB);
    expect(heavyFiles).toEqual([]);
  });

  it("sends scripts compressed (Brotli to a browser that takes it) and cached for good (their names change with their content), and not the build manifest", async () => {
    const manifest = readManifest();
    const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!;
    const script = await fetch(`${baseURL()}/${entry.file}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-encoding")).toBe("gzip");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // A browser that takes Brotli gets the build's copy, smaller than the gzip, and the same script.
    const brotli = await fetch(`${baseURL()}/${entry.file}`, { headers: { "Accept-Encoding": "br, gzip" } });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(brotli.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const text = await script.text();
    expect(await brotli.text()).toBe(text);
    // The build's copy has a length; the server's own compression (Brotli at a low quality) streams without one.
    expect(brotli.headers.get("content-length")).toMatch(/^\d+$/);
    expect(Number(brotli.headers.get("content-length"))).toBeLessThan(0.9 * gzipSync(text).length);

    const page = await fetch(`${baseURL()}/`);
    expect(page.headers.get("cache-control")).toBe("no-cache");

    // A dot-path is no file the server hands out: it answers the SPA's page, like any unknown path.
    const manifestAnswer = await fetch(`${baseURL()}/.vite/manifest.json`);
    expect(manifestAnswer.headers.get("content-type")).toMatch(/^text\/html/);
  });
});
