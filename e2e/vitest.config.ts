import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser flows against the built app: one server for the run, two files at a time. Every flow works in
// accounts and companies of its own, so two never see each other's data; much of a flow is waiting on
// the page, which leaves room for a second browser on two cores.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    globals: true,
    globalSetup: ["e2e/global-setup.ts"],
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
