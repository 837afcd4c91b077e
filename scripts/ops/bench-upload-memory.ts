// Memory bound of file uploads: five concurrent 20 MiB uploads against the app in this process, measuring
// the process's RSS (sampled every 20 ms) before, at the peak and after. Not a test: it prints its figures.
//   npx tsx scripts/ops/bench-upload-memory.ts [multipart|json] [--glibc-defaults]   (DATABASE_URL: against that Postgres)
// Run with --expose-gc for a settled "after": NODE_OPTIONS=--expose-gc npx tsx scripts/ops/bench-upload-memory.ts
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { createApp } from "../../server/src/app";
import { systemClock } from "../../server/src/clock";
import { openDatabase } from "../../server/src/db/client";
import { openLiveBus } from "../../server/src/db/live-bus";
import { runMigrations } from "../../server/src/db/migrate";
import { defaultOutboundPolicy } from "../../server/src/integrations/outbound-address";
import { samplePdf } from "../../server/src/testing/sample-files";
import { serverAllocatorEnv } from "../build/server-env.mjs";

// Measured as `npm start` runs the server, with its allocator settings (glibc reads them when a process
// starts, hence the second process), unless MALLOC_MMAP_THRESHOLD_ is set already or --glibc-defaults asks
// for glibc's own behaviour.
if (process.env.MALLOC_MMAP_THRESHOLD_ === undefined && !process.argv.includes("--glibc-defaults")) {
  const measured = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, ...serverAllocatorEnv },
  });
  process.exit(measured.status ?? 1);
}

const mode = process.argv.includes("json") ? "json" : "multipart";
const uploads = 5;
const megabyte = 1024 * 1024;

const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: "memory://" });
await runMigrations(database);
const app = createApp({
  db: database.db,
  live: await openLiveBus(database),
  clock: systemClock,
  logger: pino({ level: "silent" }),
  appSecret: randomBytes(32).toString("base64url"),
  platformAdmins: [],
  ai: { model: "gpt-4o-mini" },
  outbound: defaultOutboundPolicy,
});
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const { port } = server.address() as AddressInfo;

async function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer | Buffer[],
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    const parts = body === undefined ? [] : Array.isArray(body) ? body : [body];
    // Written in 256 KiB pieces, as a browser sends them.
    (async () => {
      for (const part of parts) {
        for (let start = 0; start < part.length; start += 256 * 1024) {
          if (!req.write(part.subarray(start, start + 256 * 1024))) await new Promise((r) => req.once("drain", r));
        }
      }
      req.end();
    })().catch(reject);
  });
}

// A founder with a company, through the API.
const username = `bench${Date.now()}`;
const registered = await call(
  "POST",
  "/api/auth/register",
  { "Content-Type": "application/json" },
  Buffer.from(JSON.stringify({ username, email: `${username}@example.com`, password: "correct horse battery" })),
);
const token = (JSON.parse(registered.text) as { token: string }).token;
const auth = { Authorization: `Bearer ${token}` };
const company = await call(
  "POST",
  "/api/companies",
  { ...auth, "Content-Type": "application/json" },
  Buffer.from(JSON.stringify({ name: "Bench Ltd", industry: "Technology", location: "Here", stage: "Seed" })),
);
const companyId = (JSON.parse(company.text) as { id: number }).id;
const me = (JSON.parse((await call("GET", "/api/auth/user", auth)).text) as { id: number }).id;
await call(
  "PATCH",
  `/api/users/${me}/active-company`,
  { ...auth, "Content-Type": "application/json" },
  Buffer.from(JSON.stringify({ companyId })),
);

const file = samplePdf(20 * megabyte);
const boundary = "----quorum-bench";
const multipartBody = [
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBoard pack\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="pack.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  ),
  file,
  Buffer.from(`\r\n--${boundary}--\r\n`),
];
const jsonBody =
  mode === "json"
    ? Buffer.from(
        JSON.stringify({ name: "pack.pdf", category: "General", content: `data:application/pdf;base64,${file.toString("base64")}` }),
      )
    : Buffer.alloc(0);

const settle = async () => {
  for (let n = 0; n < 3; n += 1) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return process.memoryUsage().rss;
};

const before = await settle();
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const started = Date.now();
const answers = await Promise.all(
  Array.from({ length: uploads }, () =>
    mode === "json"
      ? call("POST", "/api/documents", { ...auth, "Content-Type": "application/json", "Content-Length": String(jsonBody.length) }, jsonBody)
      : call(
          "POST",
          "/api/documents",
          {
            ...auth,
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
            "Content-Length": String(multipartBody.reduce((sum, part) => sum + part.length, 0)),
          },
          multipartBody,
        ),
  ),
);
clearInterval(sampler);
const seconds = (Date.now() - started) / 1000;
const after = await settle();
server.close();
await database.close();

const statuses = answers.map((answer) => answer.status).join(", ");
const mb = (bytes: number) => `${(bytes / megabyte).toFixed(0)} MB`;
console.log(
  `${uploads} concurrent 20 MiB uploads (${mode}, ${process.env.DATABASE_URL ? "Postgres" : "embedded database"}): statuses ${statuses} in ${seconds.toFixed(1)} s`,
);
console.log(
  `RSS before ${mb(before)}, peak ${mb(peak)} (+${mb(peak - before)}), after ${mb(after)} (${after >= before ? "+" : ""}${mb(after - before)})`,
);
const ok = answers.every((answer) => answer.status === 201) && peak - before <= 400 * megabyte && after - before <= 50 * megabyte;
console.log(ok ? "within the bound: peak growth ≤ 400 MB, back within 50 MB" : "OUTSIDE the bound");
process.exit(ok ? 0 : 1);
