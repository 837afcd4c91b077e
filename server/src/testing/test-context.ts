import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { Writable } from "node:stream";
import pg from "pg";
import request from "supertest";
import { afterAll, beforeAll, inject } from "vitest";
import type { AuthResponse } from "../../../shared/auth";
import type { AppDeps } from "../app-deps";
import { createApp } from "../app";
import { resolveAppSecret } from "../app-secret";
import { claimDataDir } from "../backup/data-dir-claim";
import { reportAnswerMismatch } from "./answer-check";
import type { Clock } from "../clock";
import { embeddedDatabaseDir, openDatabase, type DatabaseHandle } from "../db/client";
import { openLiveBus, type LiveBus } from "../db/live-bus";
import { runMigrations } from "../db/migrate";
import { systemResolver } from "../integrations/outbound-address";
import { createLogger } from "../logger";
import { resolveLimits } from "../limits";
import { addMember, createCompany } from "./factories";
import { eq } from "drizzle-orm";
import { accountTokens, mailOutbox, users } from "../db/schema";
import type { CompanyRole } from "../../../shared/roles";
import { textReadsSettled } from "../features/documents/paper-text.service";
import { openNotificationWaits, withLateNotifications } from "./notifications-heard";

/** A clock the test moves by hand. */
export interface TestClock extends Clock {
  set(date: Date | string): void;
  advance(ms: number): void;
}

export function createTestClock(start: Date | string = "2026-06-01T09:00:00.000Z"): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (date) => {
      current = new Date(date).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

export interface SignedUp extends AuthResponse {
  password: string;
  /** Authorization header value for supertest's .set(). */
  bearer: string;
}

/**
 * Real Postgres when the run was started for it (the "server-pg" project sets QUORUM_TEST_DB=postgres
 * and DATABASE_URL points at a server): each test file gets a database of its own, dropped afterwards.
 */
interface TestDatabase extends DatabaseHandle {
  /** Another connection pool to the same database, as a second server instance would have (PGlite: the same handle). */
  openAnother(): Promise<DatabaseHandle>;
}

async function openTestDatabase(onQuery: (sql: string) => void, dataDir?: string): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (dataDir) {
    // An embedded database on disk, as the server keeps it under DATA_DIR (the run's migrated snapshot when new).
    const snapshot = existsSync(embeddedDatabaseDir(dataDir)) ? undefined : inject("pgliteSnapshot");
    const embeddedSnapshot = snapshot ? new Blob([await readFile(snapshot)]) : undefined;
    const handle = await openDatabase({ dataDir: embeddedDatabaseDir(dataDir), onQuery, embeddedSnapshot });
    return { ...handle, openAnother: async () => ({ ...handle, close: async () => undefined }) };
  }
  if (process.env.QUORUM_TEST_DB !== "postgres" || !adminUrl) {
    // The run's migrated snapshot (see global-setup.ts) spares each file initdb and the migrations.
    const snapshot = inject("pgliteSnapshot");
    const embeddedSnapshot = snapshot ? new Blob([await readFile(snapshot)]) : undefined;
    const handle = await openDatabase({ dataDir: "memory://", onQuery, embeddedSnapshot });
    return { ...handle, openAnother: async () => ({ ...handle, close: async () => undefined }) };
  }
  const name = `quorum_t_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = inject("postgresTemplate");
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://", onQuery });
  return {
    ...handle,
    openAnother: () => openDatabase({ databaseUrl: url.toString(), dataDir: "memory://" }),
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

/**
 * One database and app per test file (a fresh PGlite costs seconds, so not one per test). With `dataDir`, the embedded
 * database and the secret live in that DATA_DIR on disk, claimed as the server claims it (see data-dir-claim.ts).
 */
export async function createTestContext(overrides: Partial<AppDeps> = {}, options: { dataDir?: string } = {}) {
  // Every statement the app sends is counted, so tests can prove a list costs a fixed number of queries.
  let queryCount = 0;
  const queryHooks = new Set<{ matches: RegExp; run: () => void }>();
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const dataDirClaim = options.dataDir ? await claimDataDir(options.dataDir, "server") : undefined;
  let sawStatement = (_statement: string) => {};
  const database = await openTestDatabase((statement) => {
    queryCount += 1;
    sawStatement(statement);
    for (const hook of queryHooks) {
      if (!hook.matches.test(statement)) continue;
      queryHooks.delete(hook);
      hook.run();
    }
  }, options.dataDir);
  await runMigrations(database);
  dataDirClaim?.serveSnapshots(database);
  const live = await openLiveBus(withLateNotifications(database));
  const notifications = await openNotificationWaits(database, live);
  sawStatement = notifications.sawStatement;
  const clock = createTestClock();
  // Every log line is kept so tests can prove that no secret is ever written.
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(String(chunk));
      callback();
    },
  });
  const deps: AppDeps = {
    db: database.db,
    live,
    clock,
    logger: createLogger({ level: "info", destination }),
    appSecret: options.dataDir ? resolveAppSecret({ dataDir: options.dataDir }) : randomBytes(32).toString("base64url"),
    platformAdmins: [],
    ai: { model: "gpt-4o-mini" },
    // The test SMTP server, object store and closed ports are on this machine; tests of the guard itself pass their own.
    outbound: { allowedHosts: ["127.0.0.1", "localhost"], resolve: systemResolver },
    checkAnswers: reportAnswerMismatch,
    // Tests register many accounts from one address and sign in often: a test of a limit passes the real ones.
    limits: resolveLimits({}, 1000),
    ...overrides,
  };
  // Each request the tests send starts once the notifications of the writes before it have been heard, as they would
  // be on one machine with no delay: what a test asserts after a write is then never a race with Postgres.
  const app = notifications.gated(createApp(deps));
  let counter = 0;
  const issuedTokens: string[] = [];
  /** Other secrets the tests handled (an authenticator's secret and codes, recovery codes, sign-in challenges). */
  const noted: string[] = [];

  /**
   * Every test file's whole log is read once more at the end: no line may hold a password hash, a bearer
   * header or a session token this context issued, whatever the tests did.
   */
  function assertNoSecretsLogged(): void {
    const secrets = ["$argon2", "Bearer ", ...issuedTokens];
    // A short secret (a 6-digit code) counts only as a whole word: as part of a longer number or id it is chance.
    const words = noted
      .filter((secret) => secret.length <= 12)
      .map((secret) => new RegExp(`(?<![0-9A-Za-z])${secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![0-9A-Za-z])`));
    const leak = logs.find(
      (line) =>
        secrets.some((secret) => line.includes(secret)) ||
        noted.some((secret) => secret.length > 12 && line.includes(secret)) ||
        words.some((word) => word.test(line)),
    );
    if (leak) throw new Error(`a log line holds a secret: ${leak.slice(0, 300)}`);
  }

  /**
   * Registers a fresh account through the API. Unless `confirmAddress` is false, its holder then confirms the address
   * as by the mailed link (straight in the database: the account is verified and its verification mail and link are
   * gone), so a test of anything else starts from an established account and an outbox holding only what it caused.
   */
  async function signUp(
    fields: Partial<{
      username: string;
      email: string;
      password: string;
      firstName: string;
      lastName: string;
      confirmAddress: boolean;
    }> = {},
  ): Promise<SignedUp> {
    counter += 1;
    const unique = `${counter}${randomBytes(3).toString("hex")}`;
    const body = {
      username: fields.username ?? `user${unique}`,
      email: fields.email ?? `user${unique}@example.com`,
      password: fields.password ?? "correct horse battery",
      firstName: fields.firstName ?? "Test",
      lastName: fields.lastName ?? `User${counter}`,
    };
    const response = await request(app).post("/api/auth/register").send(body);
    if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
    const user = response.body as AuthResponse;
    issuedTokens.push(user.token);
    if (fields.confirmAddress !== false && !user.emailVerified) {
      await database.db.transaction(async (tx) => {
        await tx.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));
        await tx.delete(accountTokens).where(eq(accountTokens.userId, user.id));
        await tx.delete(mailOutbox).where(eq(mailOutbox.userId, user.id));
      });
      user.emailVerified = true;
    }
    return { ...user, password: body.password, bearer: `Bearer ${user.token}` };
  }

  /** A founder with an active company, and members of it made on demand. */
  async function board(name = "Acme Holdings", founderFields: Parameters<typeof signUp>[0] = {}) {
    const founder = await signUp(founderFields);
    const company = await createCompany(database.db, { name, founderId: founder.id });
    const member = async (role: CompanyRole = "member", fields: Parameters<typeof signUp>[0] = {}) => {
      const user = await signUp(fields);
      await addMember(database.db, company.id, user.id, role);
      return user;
    };
    return { founder, company, member };
  }

  return {
    app,
    db: database.db,
    board,
    databaseKind: database.kind,
    clock,
    logs,
    deps,
    signUp,
    /** Adds secrets the file's log is checked for at the end, besides the session tokens it issued. */
    noteSecret(...secrets: string[]) {
      noted.push(...secrets.filter((secret) => secret.length > 0));
    },
    /**
     * A second app on the same database, as a second instance behind a load balancer would be
     * (with real Postgres: its own connection pool). Close it before the context.
     */
    async openSecondInstance() {
      const handle = await database.openAnother();
      const otherLive = await openLiveBus(withLateNotifications(handle));
      const app = createApp({ ...deps, db: handle.db, live: otherLive });
      return { app, db: handle.db, live: otherLive, close: async () => (await otherLive.close(), await handle.close()) };
    },
    /**
     * Runs `run` once, as the app sends the next statement that matches (before the database has it): a test puts
     * its own write between two of the app's statements with it.
     */
    whenQuery(matches: RegExp, run: () => void) {
      queryHooks.add({ matches, run });
    },
    /**
     * Returns once this app (or the instance listening on `bus`) has heard the notifications of every write so far, as
     * each query count waits first: a read meant to fill a cache before a count is made after it, or a late
     * notification may empty the cache again; so is a read that must see a write made straight in the database.
     */
    notificationsHeard: (bus: LiveBus = live) => notifications.heard(bus),
    /**
     * Runs a write made straight in the database and returns once this app heard its notification about the user
     * (with real Postgres it arrives on its own connection, after the write): the session cache has dropped them.
     */
    async changeUserDirectly(userId: number, write: () => Promise<unknown>) {
      let unsubscribe = () => {};
      const heard = new Promise<void>((resolve) => {
        unsubscribe = live.onAuthChange((change) => change.userId === userId && resolve());
      });
      try {
        await write();
        await heard;
      } finally {
        unsubscribe();
      }
    },
    /**
     * Runs `work` and answers how many SQL statements it sent. It starts once every notification of the writes before
     * it has been heard: on Postgres they arrive on their own time, and one heard during `work` would empty a cache
     * that `work` relied on.
     */
    async countQueries(work: () => Promise<unknown>): Promise<number> {
      // A paper's text is read in the background after its upload: counted with the work that queued it, never later.
      await textReadsSettled();
      await notifications.heard(live);
      const before = queryCount;
      await work();
      await textReadsSettled();
      return queryCount - before;
    },
    async close() {
      await live.close();
      await notifications.close();
      await database.close();
      await dataDirClaim?.close();
      assertNoSecretsLogged();
    },
  };
}

/**
 * Opens the file's context before its tests and closes it after them (closing also checks the log for secrets);
 * call at the top of a server test file, before any hook of its own that uses the context. The answer stands for
 * the context itself (`ctx.app`, `ctx.signUp()`), read once beforeAll has opened it. Hooks the file adds after
 * this call run after the context opens and, for afterAll, before it closes.
 */
export function useTestContext(overrides: Partial<AppDeps> = {}, options: { dataDir?: string } = {}): TestContext {
  let opened: TestContext | undefined;
  beforeAll(async () => {
    opened = await createTestContext(overrides, options);
  });
  afterAll(() => opened?.close());
  const current = (): TestContext => {
    if (!opened) throw new Error("the test context is opened in beforeAll: use it inside a hook or a test");
    return opened;
  };
  // Each property is looked up on the context of the moment, so the file can hold `ctx` from its top level.
  return new Proxy({} as TestContext, { get: (_target, property) => Reflect.get(current(), property) });
}

/**
 * A second instance of the file's context (`ctx.openSecondInstance`), opened before its tests and closed before the
 * context is; read its `app` and `db` inside the tests.
 */
export function useSecondInstance(ctx: TestContext) {
  let opened: Awaited<ReturnType<TestContext["openSecondInstance"]>> | undefined;
  beforeAll(async () => {
    opened = await ctx.openSecondInstance();
  });
  afterAll(() => opened?.close());
  const instance = () => {
    if (!opened) throw new Error("the second instance opens in beforeAll");
    return opened;
  };
  return {
    get app() {
      return instance().app;
    },
    get db() {
      return instance().db;
    },
    get live() {
      return instance().live;
    },
  };
}
