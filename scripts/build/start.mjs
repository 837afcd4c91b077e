// `npm start`: builds when the build is missing or older than the sources, then serves.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { serverAllocatorEnv } from "./server-env.mjs";

const outputs = ["dist/server/index.js", "dist/server/pdf-worker.js", "dist/server/paper-text-worker.js", "dist/public/index.html"];
// The build's own steps (scripts/build/) count too: they decide how the client's chunks are cut and the server is bundled.
const sources = ["client", "server", "shared", "migrations", "package-lock.json", "vite.config.ts", "tailwind.config.ts", "scripts/build"];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const builtAt = Math.min(...outputs.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
const changedAt = Math.max(...sources.map(newestMtime));
if (builtAt === 0 || changedAt > builtAt) {
  console.log("Building Quorum…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Replace this process's role with the server so signals reach it directly.
const server = spawnSync(process.execPath, ["--enable-source-maps", "dist/server/index.js"], {
  stdio: "inherit",
  env: { ...process.env, ...serverAllocatorEnv },
});
process.exit(server.status ?? 0);
