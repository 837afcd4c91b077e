import { sql } from "drizzle-orm";
import request from "supertest";
import { companyScopedRoutes, thingScopedRoutes, type CompanyRoute, type ThingRoute } from "../../testing/tenancy-routes";
import { meetingContent } from "../../testing/factories";
import { createTestContext, type SignedUp, type TestContext } from "../../testing/test-context";

/**
 * Walks every route of server/src/testing/tenancy-routes.ts (each feature appends its
 * /api/companies/:companyId/... routes there) and proves that a founder of company B, asking for
 * company A, gets 403 with nothing but a message, that nothing of A changes, and that the route is
 * real (A's founder gets through it). Then walks its by-id routes (a thing of A named by its id): B's founder
 * gets 404, as for an id that names nothing.
 */
let ctx: TestContext;
let alice: SignedUp;
let bob: SignedUp;
let companyA: { id: number; name: string };
const secret = "Confidential merger with Initech";
const things: Record<ThingRoute["thing"], number> = { meeting: 0, document: 0 };

beforeAll(async () => {
  ctx = await createTestContext();
  const boardA = await ctx.board("Alpha Board Ltd", { firstName: "Alice", lastName: "Alpha" });
  alice = boardA.founder;
  companyA = boardA.company;
  await ctx.db.execute(sql`update companies set description = ${secret}, invitation_message = ${secret} where id = ${companyA.id}`);
  await boardA.member("member", { firstName: "Carol", lastName: "Alpha-Member" });
  // Bob is as strong as a user gets in company B: its founder.
  bob = (await ctx.board("Beta Board Ltd", { firstName: "Bob", lastName: "Beta" })).founder;

  // Company A's meeting (a document too), with the secret in its title, location and agenda.
  const scheduled = await request(ctx.app)
    .post("/api/documents")
    .set("Authorization", alice.bearer)
    .send({
      name: `Meeting: ${secret}`,
      fileType: "application/json",
      fileSize: 1,
      category: "Meeting",
      content: JSON.stringify(meetingContent(new Date("2026-07-01T10:00:00.000Z"), { title: secret, location: secret, agenda: secret })),
    });
  if (scheduled.status !== 201) throw new Error(`scheduling failed: ${scheduled.status} ${JSON.stringify(scheduled.body)}`);
  things.meeting = scheduled.body.id;
  things.document = scheduled.body.id;
});
afterAll(() => ctx.close());

const pathOf = (route: CompanyRoute, companyId: number) => route.path.replace(":companyId", String(companyId));
const label = (route: CompanyRoute | ThingRoute) => `${route.method.toUpperCase()} ${route.path}`;

function call(route: CompanyRoute, companyId: number, bearer?: string) {
  let pending = request(ctx.app)[route.method](pathOf(route, companyId));
  if (bearer) pending = pending.set("Authorization", bearer);
  return route.body === undefined ? pending : pending.send(route.body as object);
}

/** A fingerprint of every application table's content (sessions and sign-in attempts aside). */
async function databaseFingerprint(): Promise<Record<string, string>> {
  const tables = await ctx.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const names = (tables as unknown as { rows: { table_name: string }[] }).rows
    .map((row) => row.table_name)
    .filter((name) => name !== "sessions" && name !== "login_attempts");
  const fingerprint: Record<string, string> = {};
  for (const name of names) {
    const result = await ctx.db.execute(
      sql`select count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.identifier(name)} t`,
    );
    fingerprint[name] = (result as unknown as { rows: { digest: string }[] }).rows[0]!.digest;
  }
  return fingerprint;
}

describe("tenancy: every /api/companies/:companyId/* route", () => {
  it("has routes to walk", () => {
    expect(companyScopedRoutes.length).toBeGreaterThanOrEqual(4);
  });

  it("answers 401 to a caller without a token", async () => {
    const failures: string[] = [];
    for (const route of companyScopedRoutes) {
      const response = await call(route, companyA.id);
      if (response.status !== 401) failures.push(`${label(route)} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("gives a member of company B a 403 with no data of company A, and changes nothing", async () => {
    const before = await databaseFingerprint();
    const failures: string[] = [];
    for (const route of companyScopedRoutes) {
      const response = await call(route, companyA.id, bob.bearer);
      if (response.status !== 403) failures.push(`${label(route)} → ${response.status}`);
      if (Object.keys(response.body ?? {}).join() !== "message") failures.push(`${label(route)} body ${JSON.stringify(response.body)}`);
      for (const leak of [companyA.name, secret, alice.email, alice.username]) {
        if (response.text.includes(leak)) failures.push(`${label(route)} leaks "${leak}"`);
      }
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("treats an id that is no company like any company one is not a member of", async () => {
    const failures: string[] = [];
    for (const route of companyScopedRoutes) {
      const response = await call(route, 999_999, bob.bearer);
      if (response.status !== 403) failures.push(`${label(route)} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("lists only real routes: company A's founder gets through each", async () => {
    const failures: string[] = [];
    for (const route of companyScopedRoutes) {
      const response = await call(route, companyA.id, alice.bearer);
      if ([401, 403, 404].includes(response.status) || response.status >= 500) failures.push(`${label(route)} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("tenancy: every route naming a company's thing by id", () => {
  const thingPath = (route: ThingRoute, id: number) => route.path.replace(":id", String(id));
  function callThing(route: ThingRoute, id: number, bearer?: string) {
    let pending = request(ctx.app)[route.method](thingPath(route, id));
    if (bearer) pending = pending.set("Authorization", bearer);
    return route.body === undefined ? pending : pending.send(route.body as object);
  }

  it("has routes to walk", () => {
    expect(thingScopedRoutes.length).toBeGreaterThanOrEqual(3);
  });

  it("gives a member of company B a 404 with no data of company A's thing, and changes nothing", async () => {
    const before = await databaseFingerprint();
    const failures: string[] = [];
    for (const route of thingScopedRoutes) {
      const response = await callThing(route, things[route.thing], bob.bearer);
      if (response.status !== 404) failures.push(`${label(route)} → ${response.status}`);
      if (Object.keys(response.body ?? {}).join() !== "message") failures.push(`${label(route)} body ${JSON.stringify(response.body)}`);
      for (const leak of [companyA.name, secret, alice.email, alice.username]) {
        if (response.text.includes(leak)) failures.push(`${label(route)} leaks "${leak}"`);
      }
    }
    expect(failures).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("answers another company's thing exactly as an id that names nothing", async () => {
    const failures: string[] = [];
    for (const route of thingScopedRoutes) {
      const foreign = await callThing(route, things[route.thing], bob.bearer);
      const missing = await callThing(route, 999_999, bob.bearer);
      if (foreign.status !== missing.status || foreign.text !== missing.text) {
        failures.push(`${label(route)}: ${foreign.status} ${foreign.text} vs ${missing.status} ${missing.text}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("lists only real routes: company A's founder gets through each", async () => {
    const failures: string[] = [];
    for (const route of thingScopedRoutes) {
      const response = await callThing(route, things[route.thing], alice.bearer);
      if ([401, 403, 404].includes(response.status) || response.status >= 500) failures.push(`${label(route)} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });
});
