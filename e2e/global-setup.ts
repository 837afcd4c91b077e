import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { ensureChromium } from "./chromium";
import { freePort } from "../scripts/free-port";

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
  if (!existsSync("dist/server/index.js") || !existsSync("dist/public/index.html")) {
    throw new Error("Build first: npm run build (npm run test:e2e does it).");
  }
  ensureChromium();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const platformAdmin = { username: "platformadmin", password: "admin-password-1" };
  const appSecret = randomBytes(32).toString("base64url");
  server = spawn(process.execPath, ["dist/server/index.js"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      APP_SECRET: appSecret,
      PLATFORM_ADMINS: platformAdmin.username,
      OPENAI_API_KEY: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (server.exitCode != null) throw new Error(`server exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error("server did not start in 60 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
