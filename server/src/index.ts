import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "express";
import { resolveAppSecret } from "./app-secret";
import { createApp } from "./app";
import { claimDataDir } from "./backup/data-dir-claim";
import { systemClock } from "./clock";
import { embeddedDatabaseDir, openDatabase } from "./db/client";
import { openLiveBus } from "./db/live-bus";
import { runMigrations } from "./db/migrate";
import { readEnv } from "./env";
import { limitsFromEnv } from "./limits";
import { setPlatformAdmin } from "./features/auth/auth.service";
import { startBackgroundJobs } from "./features/reminders/worker";
import { startMinutesSweep } from "./features/meeting-record/minutes.service";
import { startResolutionSweep } from "./features/resolutions/resolution-decision";
import { startCertificateSweep } from "./features/resolutions/written-certificate-file";
import { startPaperTextSweep } from "./features/documents/paper-text.service";
import { startNoteRetentionSweep } from "./features/reading/notes-retention.service";
import { createHttpServer } from "./http/http-server";
import { defaultMailSettings } from "./integrations/mailer";
import { checkHttpServiceUrl, systemResolver } from "./integrations/outbound-address";
import { createLogger, describeError } from "./logger";

const devMode = process.argv.includes("--dev");
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

async function main(): Promise<void> {
  // Holds the event loop open until the server listens. Opening the embedded database leaves the loop nothing to wait
  // on but promises, and Node then blocks until every V8 background task is done, the optimising compilation of the
  // database's WebAssembly included: 0.3 to 1 s before the first request could be read.
  const starting = setInterval(() => undefined, 60_000);
  const env = readEnv();
  const outbound = { allowedHosts: env.OUTBOUND_ALLOWED_HOSTS, resolve: systemResolver };
  // The environment's AI address meets the rule a stored one does; said at start-up rather than at the first draft.
  if (env.OPENAI_BASE_URL) {
    try {
      checkHttpServiceUrl(outbound, env.OPENAI_BASE_URL);
    } catch (error) {
      throw new Error(`Invalid configuration:\n  OPENAI_BASE_URL: ${(error as Error).message}`, { cause: error });
    }
  }
  const logger = createLogger({ level: env.LOG_LEVEL });
  const dataDir = env.DATA_DIR.startsWith("memory://") ? env.DATA_DIR : resolve(env.DATA_DIR);
  const appSecret = resolveAppSecret({ appSecret: env.APP_SECRET, databaseUrl: env.DATABASE_URL, dataDir });
  const embeddedOnDisk = !env.DATABASE_URL && !dataDir.startsWith("memory://");
  if (embeddedOnDisk) mkdirSync(dataDir, { recursive: true });
  // One process at a time may open the embedded database; the claim also answers `npm run backup` while we run.
  const dataDirClaim = embeddedOnDisk ? await claimDataDir(dataDir, "server") : undefined;

  const database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: embeddedDatabaseDir(dataDir),
    onIdleConnectionError: (error) => logger.warn({ err: error }, "idle database connection lost"),
  });
  await runMigrations(database);
  dataDirClaim?.serveSnapshots(database);
  // The listening connection: sessions revoked and votes cast on any instance reach this one.
  const live = await openLiveBus(database, { onError: (error) => logger.warn({ err: error }, "the listening connection failed") });
  const granted = await setPlatformAdmin({ db: database.db }, env.PLATFORM_ADMINS, true);
  if (granted > 0) logger.info({ count: granted }, "platform admins granted from PLATFORM_ADMINS");

  let frontend: RequestHandler | undefined;
  if (devMode) {
    const { createServer } = await import("vite");
    const vite = await createServer({
      configFile: resolve(repoRoot, "vite.config.ts"),
      server: { middlewareMode: true },
      appType: "spa",
    });
    frontend = vite.middlewares;
  }

  const deps = {
    db: database.db,
    live,
    clock: systemClock,
    logger,
    appSecret,
    platformAdmins: env.PLATFORM_ADMINS,
    trustProxy: env.TRUST_PROXY,
    limits: limitsFromEnv(env),
    ai: { model: env.OPENAI_MODEL, apiKeyFromEnv: env.OPENAI_API_KEY, baseUrlFromEnv: env.OPENAI_BASE_URL },
    outbound,
    mail: {
      from: env.MAIL_FROM ?? defaultMailSettings.from,
      appUrl: (env.APP_URL ?? `http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${env.PORT}`).replace(/\/+$/, ""),
    },
    staticDir: resolve(repoRoot, "dist", "public"),
  };
  const app = createApp(deps, { frontend });
  // Meeting reminders, the weekly digest and the mail outbox, every JOBS_INTERVAL_MS (15 s unless set).
  const jobs = startBackgroundJobs(deps, { intervalMs: env.JOBS_INTERVAL_MS });

  // Resolutions whose deadline passed are decided even when nobody reads them.
  const resolutionSweep = startResolutionSweep({ db: database.db, clock: systemClock, logger });
  // Minutes whose approving resolution was decided are approved (or let go) even when nobody reads them.
  const minutesSweep = startMinutesSweep({ db: database.db, clock: systemClock, logger, appSecret, outbound: deps.outbound });
  // A decided written resolution's certificate is filed in the library even when the deciding request did not file it.
  const certificateSweep = startCertificateSweep({ db: database.db, clock: systemClock, logger, appSecret, outbound: deps.outbound });
  // Each paper version's text is read page by page (for what changed between versions), back-filling older papers.
  const paperTextSweep = startPaperTextSweep({ db: database.db, clock: systemClock, logger, appSecret, outbound: deps.outbound });
  // Directors' notes are told of, then deleted, under their board's retention setting.
  const noteRetentionSweep = startNoteRetentionSweep({ db: database.db, clock: systemClock, logger });

  const server = createHttpServer(app, logger);
  server.on("error", (error) => {
    logger.fatal({ err: error }, "the HTTP server failed");
    process.exit(1);
  });
  server.listen(env.PORT, env.HOST, () => {
    clearInterval(starting);
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : env.PORT;
    // startupMs: from the process's start, so a slower start shows in the log.
    logger.info(
      { url: `http://${env.HOST}:${port}`, database: database.kind, startupMs: Math.round(performance.now()) },
      "Quorum is listening",
    );
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    resolutionSweep.stop();
    minutesSweep.stop();
    certificateSweep.stop();
    paperTextSweep.stop();
    noteRetentionSweep.stop();
    // Open event streams end now (clients reconnect to another instance); in-flight requests read sessions afresh.
    void live.close();
    // In-flight requests get 10 s to finish; then we stop regardless.
    const force = setTimeout(() => {
      logger.warn("forcing shutdown after 10 s");
      server.closeAllConnections();
    }, 10_000);
    force.unref();
    server.close(() => {
      jobs
        .stop()
        .then(() => database.close())
        .then(() => dataDirClaim?.close())
        .catch((error: unknown) => logger.error({ err: error }, "closing the database failed"))
        .finally(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  // A failed query's message holds its values: describeError keeps the statement and the SQLSTATE only.
  console.error(describeError(error));
  process.exit(1);
});
