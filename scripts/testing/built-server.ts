import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { freePort } from "./free-port";

/**
 * Starts the built server (dist/server/index.js, from `npm run build`) on a free port with an in-memory
 * database, no AI key, warnings-only logs and limits raised a thousandfold, and waits until it answers its health check. `env` adds to or
 * overrides those settings (APP_SECRET is random unless given). For the browser tests and Lighthouse.
 */
export async function startBuiltServer(
  options: {
    cwd?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
    /** The host the app's address (APP_URL) names, when it must be a name: a passkey's RP ID cannot be an IP address. */
    appHost?: string;
  } = {},
): Promise<{ baseURL: string; server: ChildProcess }> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const server = spawn(process.execPath, ["dist/server/index.js"], {
    cwd: options.cwd,
    env: {
      ...process.env,
      DATABASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      APP_SECRET: randomBytes(32).toString("base64url"),
      OPENAI_API_KEY: "",
      LOG_LEVEL: "warn",
      // The browser tests and Lighthouse register and sign in far more often from one address than a person does.
      LIMITS_MULTIPLIER: "1000",
      ...(options.appHost ? { APP_URL: `http://${options.appHost}:${port}` } : {}),
      ...options.env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(5_000) })).ok) return { baseURL, server };
    } catch {
      // not up yet
    }
    if (server.exitCode != null) throw new Error(`the server exited with ${server.exitCode}`);
    if (Date.now() > deadline) {
      // Left running, it would keep the test run from ever exiting.
      server.kill("SIGKILL");
      throw new Error(`the server did not start in ${timeoutMs / 1000} s`);
    }
    await new Promise((wait) => setTimeout(wait, 200));
  }
}
