import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { ensureChromium } from "../scripts/testing/chromium";
import { startBuiltServer } from "../scripts/testing/built-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    platformAdmin: { username: string; password: string };
    /** The server's APP_SECRET, for flows that need what only the server signs (an e-mail's unsubscribe token). */
    appSecret: string;
  }
}

let server: ChildProcess | undefined;

/** Starts the built server on a free port with an in-memory database, and registers the platform admin first. */
export default async function setup(project: TestProject) {
  if (
    !["dist/server/index.js", "dist/server/pdf-worker.js", "dist/server/paper-text-worker.js", "dist/public/index.html"].every((file) =>
      existsSync(file),
    )
  ) {
    throw new Error("Build first: npm run build (npm run test:e2e does it).");
  }
  ensureChromium();
  const platformAdmin = { username: "platformadmin", password: "admin-password-1" };
  const appSecret = randomBytes(32).toString("base64url");
  const started = await startBuiltServer({ env: { APP_SECRET: appSecret, PLATFORM_ADMINS: platformAdmin.username } });
  server = started.server;
  const { baseURL } = started;
  const registered = await fetch(`${baseURL}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...platformAdmin, email: "platformadmin@example.com", firstName: "Platform", lastName: "Admin" }),
  });
  if (registered.status !== 201) throw new Error(`could not register the platform admin: ${registered.status}`);
  project.provide("baseURL", baseURL);
  project.provide("platformAdmin", platformAdmin);
  project.provide("appSecret", appSecret);

  return async () => {
    if (!server || server.exitCode != null) return;
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  };
}
