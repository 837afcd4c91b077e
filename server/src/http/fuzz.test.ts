import { eq } from "drizzle-orm";
import fc from "fast-check";
import request from "supertest";
import { actionItems, documentFiles, documents, invitations, notifications, resolutions, users } from "../db/schema";
import { answersEventStream, getStatusOf } from "../testing/event-stream-client";
import { meetingContent } from "../testing/factories";
import { apiRoutes, routeKey, type ApiRoute } from "../testing/route-walker";
import { noThingsYet, routeFixtures, thingOf } from "../testing/tenancy-routes";
import { createTestContext, type SignedUp, type TestContext } from "../testing/test-context";

/**
 * Malformed input against every /api route the app has: the routes come from the app's own router (a new
 * route is fuzzed without editing this file), each called by a caller its guard lets through, with
 * generated bodies, path parameters and queries — wrong types, boundary and overflowing integers, long
 * strings, control characters, prototype keys, impossible dates, wrong content types, truncated JSON.
 * Whatever is sent: never a 5xx, every refusal has the JSON error body, no answer takes 5 s.
 *
 * `npm test` runs a few thousand requests with a fixed seed on the embedded database. `npm run fuzz`
 * runs many more with a random seed (FUZZ_RUNS, FUZZ_SEED); fast-check prints the seed and the shrunk
 * request of any failure, and FUZZ_SEED replays it.
 */
const totalRuns = Number(process.env.FUZZ_RUNS ?? 3000);
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const slowAnswerMs = 5000;
// The suite runs once, on the embedded database: the input classes behave alike on both (bad-input.test.ts).
const onEmbedded = process.env.QUORUM_TEST_DB !== "postgres";

let ctx: TestContext;
let routes: ApiRoute[];
let admin: SignedUp;
let founder: SignedUp;
let member: SignedUp;
let companyId: number;
const things = noThingsYet();

// ---- generators ---------------------------------------------------------------------------------

const controlCharacter = fc.constantFrom("\u0000", "\u0001", "\u0007", "\u0008", "\u000b", "\u001b", "\u007f", "\ud800", "\uffff");
const withControl = fc
  .tuple(fc.string({ maxLength: 20 }), controlCharacter, fc.string({ maxLength: 20 }))
  .map(([a, c, b]) => `${a}${c}${b}`);
const longString = fc.integer({ min: 257, max: 70_000 }).map((length) => "x".repeat(length));
const numberLike = fc.constantFrom(
  0,
  -1,
  1.5,
  2147483647,
  2147483648,
  -2147483649,
  4294967296,
  Number.MAX_SAFE_INTEGER,
  2 ** 63,
  1e308,
  -1e308,
);
const stringNumber = fc.constantFrom(
  "0",
  "-1",
  "2147483648",
  "4294967296",
  "99999999999999999999",
  "1e3",
  "0x10",
  " 7 ",
  "7abc",
  "NaN",
  "Infinity",
  "",
);
const impossibleDate = fc.constantFrom(
  "0000-01-01T00:00:00Z",
  "1899-12-31T23:59:59Z",
  "9999-12-31T23:00:00.000Z",
  "+010000-01-01T00:00:00Z",
  "+275760-09-13T00:00:00.000Z",
  "-000001-01-01T00:00:00Z",
  "2026-02-30T10:00:00Z",
  "2026-13-01T00:00:00Z",
  "2026-06-01",
  "yesterday",
);
const prototypeKey = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty");

const badScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  withControl,
  longString,
  numberLike,
  stringNumber,
  impossibleDate,
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true }),
);
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: badScalar },
  { weight: 1, arbitrary: fc.array(badScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), prototypeKey), badScalar, { maxKeys: 4 }) },
);

/** A route's known-good body with fields replaced, removed or added; or no object at all. */
function bodyFor(base: Record<string, unknown> | undefined): fc.Arbitrary<unknown> {
  const keys = Object.keys(base ?? {});
  const known = base ?? {};
  const mutated = fc
    .record({
      replace: fc.dictionary(keys.length > 0 ? fc.constantFrom(...keys) : fc.string({ maxLength: 10 }), badValue, {
        maxKeys: Math.max(1, keys.length),
      }),
      drop: fc.subarray(keys),
      extra: fc.dictionary(fc.oneof(prototypeKey, fc.string({ maxLength: 12 })), badValue, { maxKeys: 3 }),
    })
    .map(({ replace, drop, extra }) => {
      const body: Record<string, unknown> = { ...known };
      for (const key of drop) delete body[key];
      return Object.assign(body, extra, replace);
    });
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: badValue },
  );
}

/** How the body travels: JSON, JSON cut short, or a content type the API does not take. */
const encoding = fc.constantFrom("json", "json", "json", "truncated", "text", "form", "none");

const badParam = fc.oneof(
  stringNumber.filter((value) => value !== ""),
  fc.constantFrom("%00", "%ff", "..", "__proto__", "constructor", "%F0%9F%92%A9", "1;drop table users", "-0", "1.0"),
  fc.string({ maxLength: 30 }).map((value) => encodeURIComponent(value) || "x"),
);
const query = fc.dictionary(fc.oneof(prototypeKey, fc.string({ maxLength: 8 })), fc.oneof(fc.string({ maxLength: 20 }), withControl), {
  maxKeys: 3,
});

// ---- callers and paths ------------------------------------------------------------------------

/** Someone the route's guard lets through, so the fuzz reaches the handler. */
function callerFor(route: ApiRoute): SignedUp | undefined {
  if (route.class === "public") return undefined;
  if (route.class === "platform") return admin;
  return founder;
}

/** What goes where the path names an id: a real one of the founder's company (or the caller), usually. */
function realParam(route: ApiRoute, param: string): string {
  if (param === "companyId") return String(companyId);
  if (route.path.startsWith("/api/users/")) return String(param === "userId" ? member.id : founder.id);
  const thing = thingOf(route);
  return String(thing ? things[thing] : things.document);
}

function pathArbitrary(route: ApiRoute): fc.Arbitrary<string> {
  const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const values = params.map((param) =>
    fc.oneof({ weight: 3, arbitrary: fc.constant(realParam(route, param)) }, { weight: 2, arbitrary: badParam }),
  );
  return fc.tuple(fc.tuple(...values), query).map(([chosen, search]) => {
    let path = route.path;
    params.forEach((param, index) => {
      path = path.replace(`:${param}`, chosen[index]!);
    });
    const queryString = new URLSearchParams(search as Record<string, string>).toString();
    return queryString ? `${path}?${queryString}` : path;
  });
}

function baseBody(route: ApiRoute): Record<string, unknown> | undefined {
  const call = routeFixtures[routeKey(route)]?.calls?.(companyId, { member: member.id, invitation: things.invitation })[0];
  return call?.body as Record<string, unknown> | undefined;
}

async function send(route: ApiRoute, path: string, body: unknown, how: string) {
  const verb = route.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
  const caller = callerFor(route);
  if (answersEventStream(route.endpoint)) return getStatusOf(ctx.app, path, caller ? { Authorization: caller.bearer } : {});
  let pending = request(ctx.app)[verb](path).timeout(slowAnswerMs);
  if (caller) pending = pending.set("Authorization", caller.bearer);
  if (route.method === "GET" || how === "none") return pending;
  const json = JSON.stringify(body) ?? "null";
  if (how === "truncated")
    return pending.set("Content-Type", "application/json").send(json.slice(0, Math.max(1, Math.floor(json.length / 2))));
  if (how === "text") return pending.set("Content-Type", "text/plain").send(json);
  if (how === "form") return pending.set("Content-Type", "application/x-www-form-urlencoded").send("a=1&__proto__[x]=2&b[]=3");
  return pending.set("Content-Type", "application/json").send(json);
}

// ---- the run ----------------------------------------------------------------------------------

beforeAll(async () => {
  if (!onEmbedded) return;
  ctx = await createTestContext();
  // The first account on an empty database administers the platform.
  admin = await ctx.signUp({ firstName: "Pat", lastName: "Platform" });
  const board = await ctx.board("Fuzz Board Ltd");
  founder = board.founder;
  companyId = board.company.id;
  member = await board.member("member");
  const meeting = await request(ctx.app)
    .post("/api/documents")
    .set("Authorization", founder.bearer)
    .send({ category: "Meeting", content: JSON.stringify(meetingContent(new Date("2026-07-01T10:00:00.000Z"))) });
  things.meeting = meeting.body.id;
  const [file] = await ctx.db
    .insert(documents)
    .values({ companyId, name: "Minutes.pdf", fileType: "application/pdf", fileSize: 4, category: "Legal", uploadedBy: founder.id })
    .returning({ id: documents.id });
  await ctx.db.insert(documentFiles).values({ documentId: file!.id, bytes: Buffer.from("%PDF") });
  things.document = file!.id;
  things.company = companyId;
  const [note] = await ctx.db
    .insert(notifications)
    .values({ userId: founder.id, companyId, kind: "test", title: "Hello" })
    .returning({ id: notifications.id });
  things.notification = note!.id;
  // The founder's own invitation (to their proved address), to the board they founded.
  await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, founder.id));
  const [invitation] = await ctx.db
    .insert(invitations)
    .values({ companyId, email: founder.email, role: "admin", invitedBy: founder.id, expiresAt: new Date("2030-01-01T00:00:00.000Z") })
    .returning({ id: invitations.id });
  things.invitation = invitation!.id;
  const [resolution] = await ctx.db
    .insert(resolutions)
    .values({
      companyId,
      title: "Approve the budget",
      description: "FY27",
      type: "Ordinary",
      deadline: new Date("2026-12-31T23:59:59.999Z"),
      createdBy: founder.id,
    })
    .returning({ id: resolutions.id });
  things.resolution = resolution!.id;
  const [actionItem] = await ctx.db
    .insert(actionItems)
    .values({
      companyId,
      meetingId: things.meeting,
      title: "Send the accounts",
      ownerId: founder.id,
      dueDate: "2026-07-15",
      createdBy: founder.id,
    })
    .returning({ id: actionItems.id });
  things.actionItem = actionItem!.id;
  routes = apiRoutes(ctx.app).routes.filter((route) => route.method !== "ALL");
}, 120_000);
afterAll(() => (onEmbedded ? ctx.close() : undefined));

describe.runIf(onEmbedded)("fuzz: malformed input on every /api route", () => {
  it("has routes to fuzz", () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it(
    "never answers 5xx, always answers refusals with the JSON error body, never takes 5 s",
    async () => {
      const runsPerRoute = Math.max(20, Math.ceil(totalRuns / routes.length));
      let sent = 0;
      // Logging out would end the founder's session for the rest of the run: it goes last.
      const ordered = [...routes].sort((a, b) => Number(a.path.endsWith("/logout")) - Number(b.path.endsWith("/logout")));
      for (const [index, route] of ordered.entries()) {
        await fc.assert(
          fc.asyncProperty(pathArbitrary(route), bodyFor(baseBody(route)), encoding, async (path, body, how) => {
            sent += 1;
            const started = performance.now();
            const response = await send(route, path, body, how);
            const took = performance.now() - started;
            const summary = `${route.method} ${path} (${how}) → ${response.status} ${response.text?.slice(0, 200)}`;
            expect(response.status, summary).toBeLessThan(500);
            expect(took, summary).toBeLessThan(slowAnswerMs);
            if (response.status >= 400) {
              expect(response.headers["content-type"], summary).toMatch(/^application\/json/);
              expect(typeof response.body?.message, summary).toBe("string");
            }
          }),
          { seed: seed + index, numRuns: runsPerRoute, endOnFailure: false },
        );
      }
      console.info(`fuzz: ${sent} requests over ${routes.length} routes, seed ${seed}, 0 answers of 5xx`);
    },
    Math.max(120_000, totalRuns * 50),
  );
});
