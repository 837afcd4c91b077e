// The browser tests, the bench and Lighthouse drive Debian's Chromium (playwright-core brings no browser of its own).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless, with the background networking this closed machine refuses switched off (the browser tests, the bench). */
export const chromiumLaunchOptions = {
  executablePath: chromiumPath,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
  ],
};

/**
 * Makes sure Chromium is there before any browser starts. On a fresh Debian machine, as root, it
 * installs the package, so `npm install && npm test` works with no other set-up; anywhere else
 * it says what to install.
 */
export function ensureChromium(): void {
  if (existsSync(chromiumPath)) return;
  const canInstall = !process.env.CHROMIUM_PATH && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (!canInstall) {
    throw new Error(
      `The browser tests need Chromium at ${chromiumPath}. Install Debian's package (apt-get install chromium), or set CHROMIUM_PATH.`,
    );
  }
  console.log("Installing Debian's chromium for the browser tests…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium"],
  ]) {
    const result = spawnSync("apt-get", args, { stdio: ["ignore", "inherit", "inherit"], env });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${result.status}).`);
  }
  if (!existsSync(chromiumPath)) throw new Error(`apt-get installed chromium, but ${chromiumPath} is still missing.`);
}
