import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser flows against the built app: one server for the run, files one after another (2-core machines).
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("..", import.meta.url)),
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    globals: true,
    globalSetup: ["e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
