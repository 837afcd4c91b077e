// npm run fuzz: the malformed-input fuzz test, long and with a fresh seed (npm test runs it short, seed fixed).
// FUZZ_RUNS sets the number of requests (default 20,000); FUZZ_SEED replays a run. On failure fast-check
// prints the seed, the path to the case and the shrunk request.
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";

const runs = process.env.FUZZ_RUNS ?? "20000";
const seed = process.env.FUZZ_SEED ?? String(randomInt(1, 2 ** 31 - 1));
console.log(`fuzz: ${runs} requests, seed ${seed} (replay with FUZZ_SEED=${seed})`);
const result = spawnSync("npx", ["vitest", "run", "--project", "server", "server/src/http/fuzz.test.ts"], {
  stdio: "inherit",
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed },
});
process.exit(result.status ?? 1);
