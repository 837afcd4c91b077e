import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vitest/config";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const alias = {
  "@": here("./client/src"),
  "@shared": here("./shared"),
  "@server": here("./server/src"),
};

export default defineConfig({
  root: here("./client"),
  plugins: [react(), tailwindcss()],
  resolve: { alias },
  build: {
    outDir: here("./dist/public"),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: { "/api": "http://127.0.0.1:5000" },
  },
  test: {
    root: here("."),
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
          testTimeout: 15_000,
        },
      },
    ],
  },
});
