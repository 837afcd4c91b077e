// Run before the browser tests: they drive Debian's Chromium (playwright-core brings no browser).
// On a fresh Debian machine, as root, it installs the package so `npm install && npm test` works
// with no other set-up; anywhere else it says what to install and fails.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (existsSync(chromiumPath)) process.exit(0);

const canInstall = !process.env.CHROMIUM_PATH && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
if (!canInstall) {
  console.error(`The browser tests need Chromium at ${chromiumPath}. Install Debian's package (apt-get install chromium), or set CHROMIUM_PATH.`);
  process.exit(1);
}

console.log("Installing Debian's chromium for the browser tests…");
const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
for (const args of [["update", "-qq"], ["install", "-y", "-qq", "chromium"]]) {
  const result = spawnSync("apt-get", args, { stdio: ["ignore", "inherit", "inherit"], env });
  if (result.status !== 0) {
    console.error(`apt-get ${args.join(" ")} failed (exit ${result.status}).`);
    process.exit(1);
  }
}
if (!existsSync(chromiumPath)) {
  console.error(`apt-get installed chromium, but ${chromiumPath} is still missing.`);
  process.exit(1);
}
