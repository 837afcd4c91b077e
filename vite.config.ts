import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vitest/config";
import { firstLoadChunkName, pageChunkName } from "./scripts/build/chunk-groups.ts";
import { preloadedPages } from "./client/src/app/preloaded-pages.ts";
import { signedInPreload } from "./scripts/build/signed-in-preload.ts";
import { apiModules } from "./shared/api/table.ts";
import { apiStubs } from "./scripts/build/api-stubs.ts";
import { brotliAssets } from "./scripts/build/brotli-assets.ts";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const appRoots = {
  entry: here("./client/src/main.tsx"),
  shell: here("./client/src/app/signed-in-routes.tsx"),
  home: here("./client/src/app/routes/dashboard.tsx"),
};
const landingPages = preloadedPages.map((page) => here(`./${page.module}`)).filter((page) => page !== appRoots.home);
const pageChunk = pageChunkName({ ...appRoots, pages: landingPages });

const alias = {
  "@": here("./client/src"),
  "@shared": here("./shared"),
  "@server": here("./server/src"),
};

export default defineConfig({
  root: here("./client"),
  plugins: [
    react(),
    tailwindcss(),
    // The client bundles each endpoint's method and path, not its schemas (scripts/build/api-stubs.ts).
    apiStubs({ apiDir: here("./shared/api"), modules: apiModules }),
    // With a session stored, the signed-in app starts downloading beside the entry (scripts/build/signed-in-preload.ts).
    signedInPreload({
      chunks: ["signed-in", "shared-with-sign-in", "icons"],
      // Each page's chunk and its first reads, asked for as soon as the current user's answer names the active company;
      // the app takes the answers (client/src/app/first-reads.ts asks for the same, and the first-load test sees each
      // of the dashboard's asked once).
      pages: preloadedPages.map((page) => ({ ...page, module: here(`./${page.module}`) })),
    }),
    // A Brotli copy of each script and style sheet, which the server sends to browsers that take it.
    brotliAssets(),
  ],
  resolve: { alias },
  build: {
    outDir: here("./dist/public"),
    emptyOutDir: true,
    sourcemap: false,
    // dist/public/.vite/manifest.json: which chunks each route loads, read by the first-load budget test
    // (the server does not serve dot-directories).
    manifest: true,
    rolldownOptions: {
      output: {
        // Few files on a first load (see scripts/build/chunk-groups.ts): one for all the entry imports, one for the
        // signed-in shell and what the home page shares with other pages.
        codeSplitting: {
          groups: [
            { name: "app", tags: ["$initial"], priority: 4 },
            // Icons are reached through one module that re-exports them all, so the module graph cannot say
            // which part uses which icon: the icons the entry does not hold go to one small file of their own.
            { name: "icons", test: /node_modules[\\/]lucide-react[\\/]/, priority: 3 },
            {
              debugName: "first-load",
              name: firstLoadChunkName(appRoots),
              priority: 2,
            },
            // What the pages other than the home page share goes to one file, and what each shares with dialogs alone
            // to one file of its own (see the same file).
            { debugName: "pages-common", name: pageChunk("common"), priority: 1 },
            { debugName: "page-parts", name: pageChunk("parts"), priority: 0 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { "/api": "http://127.0.0.1:5000" },
  },
  test: {
    root: here("."),
    // Vitest's default on a 2-core machine is one worker, yet the Postgres suite spends much of its time
    // waiting on Postgres and argon2 runs off the main thread: two workers keep both cores busy.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "shared",
          root: here("."),
          include: ["shared/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          globals: true,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "server",
          root: here("."),
          include: ["server/**/*.test.ts"],
          environment: "node",
          globals: true,
          setupFiles: ["server/src/testing/setup.ts"],
          globalSetup: ["server/src/testing/global-setup.ts"],
          // Server test files share nothing but the modules they import (each opens its own database and
          // app), so a worker keeps its module cache between files instead of importing the app anew.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The same server suite again on real Postgres, each file in a database of its own.
      ...(process.env.DATABASE_URL
        ? [
            {
              resolve: { alias },
              test: {
                name: "server-pg",
                root: here("."),
                include: ["server/**/*.test.ts"],
                environment: "node",
                globals: true,
                setupFiles: ["server/src/testing/setup.ts"],
                globalSetup: ["server/src/testing/global-setup.ts"],
                isolate: false,
                env: { QUORUM_TEST_DB: "postgres" },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: "client",
          root: here("."),
          include: ["client/**/*.test.{ts,tsx}"],
          environment: "jsdom",
          globals: true,
          setupFiles: ["client/src/testing/setup.ts"],
          // A worker keeps its jsdom and module cache between files (a fresh one per file cost about two thirds of
          // the suite's CPU time); the set-up's afterEach resets what a file could leave behind.
          isolate: false,
          testTimeout: 20_000,
        },
      },
    ],
  },
});
