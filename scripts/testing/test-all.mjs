// npm test: the unit/HTTP/client suite and the browser suite side by side. Much of a browser flow is waiting on
// the page, so on two cores both finish sooner together than one after the other. Each suite's output is kept
// and printed whole when it ends (two interleaved reporters would be unreadable); a line every minute says
// what is still running. Fails when either fails.
import { spawn } from "node:child_process";

const suites = [
  { name: "test:unit", args: ["run", "test:unit"] },
  { name: "test:e2e", args: ["run", "test:e2e"] },
];
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = Date.now();
const running = new Set(suites.map((suite) => suite.name));
const children = [];

const heartbeat = setInterval(() => {
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`… ${seconds}s: still running ${[...running].join(", ")}`);
}, 60_000);

function run(suite) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(npm, suite.args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" },
    });
    children.push(child);
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    child.on("close", (code, signal) => {
      running.delete(suite.name);
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`\n===== ${suite.name}: ${code === 0 ? "passed" : `failed (${signal ?? code})`} after ${seconds}s =====\n`);
      process.stdout.write(Buffer.concat(chunks));
      resolve(code === 0);
    });
  });
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(1);
  });
}

const results = await Promise.all(suites.map(run));
clearInterval(heartbeat);
process.exit(results.every(Boolean) ? 0 : 1);
