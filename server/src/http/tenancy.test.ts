import { eq, inArray, sql } from "drizzle-orm";
import { Router, type RequestHandler } from "express";
import request from "supertest";
import { createApp } from "../app";
import {
  actionItems,
  documentFiles,
  documents,
  documentVersions,
  invitations,
  notifications,
  paperNotes,
  passkeys,
  resolutions,
  users,
} from "../db/schema";
import { endpoint, type Access } from "../../../shared/api/endpoint";
import { defaultWrittenRule } from "../../../shared/written-resolutions";
import { mountRoutes, route as bind } from "./endpoints";
import { createGuards } from "./guards";
import { sealNote } from "../features/reading/note-seal";
import { meetingContent } from "../testing/factories";
import { answersEventStream, getStatusOf, listenOn, openEventStream, type OpenedStream } from "../testing/event-stream-client";
import { apiRoutes, publicRoutes, routeKey, type ApiRoute } from "../testing/route-walker";
import { markSessionsProved, withSecondFactorSession } from "../testing/second-factor-fixtures";
import { fixtureProblems, noThingsYet, routeFixtures, thingOf } from "../testing/tenancy-routes";
import { createTestContext, type SignedUp, type TestContext } from "../testing/test-context";

/**
 * Walks the app's own router and proves each route's class from the outside. Every /api route must be
 * mounted from its declaration, whose access class is its class (route-walker.ts); then, per class: a member of company B asking for
 * company A gets 403 (company routes) or 404 (A's things) with nothing but a message and nothing of A
 * changes; another user's own-user route is refused; platform routes are for platform admins; and each
 * route is real (the right caller gets through it).
 */
let ctx: TestContext;
let pat: SignedUp;
let alice: SignedUp;
let carol: SignedUp;
let bob: SignedUp;
let dan: SignedUp;
let companyA: { id: number; name: string };
let serviceId: number;
let outsiderInvitation: number;
/** A decided written resolution of company A: only one has a certificate to read. */
let decidedWritten: number;
let routes: ApiRoute[];
let walkProblems: string[];
let listening: Awaited<ReturnType<typeof listenOn>>;
let streams: Record<"carol" | "bob" | "dan", OpenedStream>;
const secret = "Confidential merger with Initech";
const things = noThingsYet();

beforeAll(async () => {
  ctx = await createTestContext();
  // The first account on an empty database administers the platform.
  pat = await ctx.signUp({ firstName: "Pat", lastName: "Platform" });
  if (!pat.isPlatformAdmin) throw new Error("the first account should be a platform admin");
  // Changing service keys needs a session that passed a second factor.
  pat = await withSecondFactorSession(ctx, pat);
  const boardA = await ctx.board("Alpha Board Ltd", { firstName: "Alice", lastName: "Alpha" });
  alice = boardA.founder;
  companyA = boardA.company;
  await ctx.db.execute(sql`update companies set description = ${secret}, invitation_message = ${secret} where id = ${companyA.id}`);
  carol = await boardA.member("member", { firstName: "Carol", lastName: "Alpha-Member" });
  // Bob is as strong as a user gets in company B: its founder.
  bob = (await ctx.board("Beta Board Ltd", { firstName: "Bob", lastName: "Beta" })).founder;
  // Dan's active company is A, but he is no member of it (as after being removed from it).
  dan = await ctx.signUp({ firstName: "Dan", lastName: "Departed" });
  await ctx.db.update(users).set({ activeCompanyId: companyA.id }).where(eq(users.id, dan.id));
  // Event streams open through everything below: A's member hears A; B's founder and Dan must hear nothing of it.
  listening = await listenOn(ctx.app);
  streams = {
    carol: await openEventStream(listening.url, carol.bearer),
    bob: await openEventStream(listening.url, bob.bearer),
    dan: await openEventStream(listening.url, dan.bearer),
  };

  // Company A's meeting (a document too), with the secret in its title, location and agenda.
  const scheduled = await request(ctx.app)
    .post("/api/documents")
    .set("Authorization", alice.bearer)
    .send({
      category: "Meeting",
      content: JSON.stringify(meetingContent(new Date("2026-07-01T10:00:00.000Z"), { title: secret, location: secret, agenda: secret })),
    });
  if (scheduled.status !== 201) throw new Error(`scheduling failed: ${scheduled.status} ${JSON.stringify(scheduled.body)}`);
  things.meeting = scheduled.body.id;
  const [file] = await ctx.db
    .insert(documents)
    .values({
      companyId: companyA.id,
      name: `${secret}.pdf`,
      fileType: "application/pdf",
      fileSize: 4,
      category: "Legal",
      description: secret,
      uploadedBy: alice.id,
    })
    .returning({ id: documents.id });
  await ctx.db.insert(documentFiles).values({ documentId: file!.id, bytes: Buffer.from("%PDF") });
  const firstVersion = { version: 1, fileType: "application/pdf", fileSize: 4, uploadedAt: new Date("2026-06-01T09:00:00.000Z") };
  await ctx.db.insert(documentVersions).values({ documentId: file!.id, ...firstVersion });
  things.document = file!.id;
  // Alice's private note, on a paper of its own (the walk deletes the first document).
  const [notedPaper] = await ctx.db
    .insert(documents)
    .values({ companyId: companyA.id, name: `${secret} notes.pdf`, fileType: "application/pdf", fileSize: 4, category: "Legal" })
    .returning({ id: documents.id });
  await ctx.db.insert(documentFiles).values({ documentId: notedPaper!.id, bytes: Buffer.from("%PDF") });
  await ctx.db.insert(documentVersions).values({ documentId: notedPaper!.id, ...firstVersion });
  const notedAt = new Date("2026-06-01T09:00:00.000Z");
  const [paperNote] = await ctx.db
    .insert(paperNotes)
    .values({
      userId: alice.id,
      companyId: companyA.id,
      documentId: notedPaper!.id,
      version: 1,
      page: 1,
      sealed: sealNote(ctx.deps.appSecret, alice.id, { text: secret, quote: secret }),
      createdAt: notedAt,
      updatedAt: notedAt,
    })
    .returning({ id: paperNotes.id });
  things.note = paperNote!.id;
  things.company = companyA.id;
  const [note] = await ctx.db
    .insert(notifications)
    .values({ userId: alice.id, companyId: companyA.id, kind: "test", title: secret })
    .returning({ id: notifications.id });
  things.notification = note!.id;
  const [passkey] = await ctx.db
    .insert(passkeys)
    .values({ userId: alice.id, credentialId: "alice-credential", publicKey: Buffer.from([1]), name: secret })
    .returning({ id: passkeys.id });
  things.passkey = passkey!.id;
  // An invitation is Alice's to answer while it is pending and sent to her proved address. She already sits on the
  // board it names, so accepting it answers 409 and leaves it pending, for declining.
  await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, alice.id));
  const invitationExpiry = new Date("2030-01-01T00:00:00.000Z");
  const [invitation] = await ctx.db
    .insert(invitations)
    .values({
      companyId: companyA.id,
      email: alice.email,
      role: "admin",
      invitedBy: alice.id,
      tokenHash: "alice-invitation",
      expiresAt: invitationExpiry,
    })
    .returning({ id: invitations.id });
  things.invitation = invitation!.id;
  const [outsider] = await ctx.db
    .insert(invitations)
    .values({ companyId: companyA.id, email: "outsider@example.com", role: "member", invitedBy: alice.id, expiresAt: invitationExpiry })
    .returning({ id: invitations.id });
  outsiderInvitation = outsider!.id;
  const [resolution] = await ctx.db
    .insert(resolutions)
    .values({
      companyId: companyA.id,
      title: secret,
      description: secret,
      type: "Ordinary",
      deadline: new Date("2026-12-31T23:59:59.999Z"),
      createdBy: alice.id,
    })
    .returning({ id: resolutions.id });
  things.resolution = resolution!.id;
  const decidedAt = new Date("2026-06-02T10:00:00.000Z");
  const [writtenOne] = await ctx.db
    .insert(resolutions)
    .values({
      companyId: companyA.id,
      title: secret,
      description: secret,
      procedure: "written",
      type: "Unanimous",
      status: "rejected",
      deadline: decidedAt,
      decidedAt,
      createdBy: alice.id,
      writtenRule: defaultWrittenRule,
      writtenCertificate: {
        procedure: "written",
        resolutionId: 0,
        companyId: companyA.id,
        title: secret,
        text: secret,
        textSha256: "",
        rule: defaultWrittenRule,
        proposedAt: decidedAt.toISOString(),
        lapsesAt: decidedAt.toISOString(),
        eligible: [],
        recused: [],
        signatures: [],
        outcome: "rejected",
        effectiveAt: null,
        decidedAt: decidedAt.toISOString(),
        explanation: "Lapsed",
        auditHeadHash: "",
      },
    })
    .returning({ id: resolutions.id });
  decidedWritten = writtenOne!.id;
  const [actionItem] = await ctx.db
    .insert(actionItems)
    .values({
      companyId: companyA.id,
      meetingId: things.meeting,
      title: secret,
      ownerId: alice.id,
      dueDate: "2026-07-15",
      createdBy: alice.id,
    })
    .returning({ id: actionItems.id });
  things.actionItem = actionItem!.id;
  const service = await request(ctx.app)
    .post("/api/platform/settings")
    .set("Authorization", pat.bearer)
    .send({ serviceName: "Custom", serviceKey: "sk-platform-0123456789" });
  serviceId = service.body.id;

  ({ routes, problems: walkProblems } = apiRoutes(ctx.app));
});
afterAll(async () => {
  for (const stream of Object.values(streams)) stream.close();
  await listening.close();
  await ctx.close();
});

const isAccessBy = (route: ApiRoute, by: string) => {
  const access = route.endpoint?.access;
  return access !== undefined && "by" in access && access.by === by;
};
const byCompanyParam = () => routes.filter((route) => route.class === "company" && isAccessBy(route, "param"));
const byActiveCompany = () => routes.filter((route) => route.class === "company" && isAccessBy(route, "active"));
const thingRoutes = () => routes.filter((route) => route.class === "thing");
const ownUserRoutes = () => routes.filter((route) => route.class === "own-user");
const platformRoutes = () => routes.filter((route) => route.class === "platform");
const publicOnes = () => routes.filter((route) => route.class === "public");

const verbs = { GET: "get", POST: "post", PUT: "put", PATCH: "patch", DELETE: "delete" } as const;

/** The id the route is exercised with when the caller is refused: company A's, or A's thing, or Alice's. */
function idFor(route: ApiRoute): number {
  const thing = thingOf(route);
  if (thing) return things[thing];
  if (route.class === "company") return companyA.id;
  if (route.class === "own-user") return alice.id;
  if (route.class === "platform") return serviceId;
  return 0;
}

/** Sends each of the route's fixture calls with `id` in place; answers the responses. */
async function call(route: ApiRoute, id: number, bearer?: string) {
  const verb = verbs[route.method as keyof typeof verbs];
  if (!verb) throw new Error(`no way to call ${routeKey(route)}`);
  const calls = routeFixtures[routeKey(route)]?.calls?.(id, {
    member: carol.id,
    invitation: outsiderInvitation,
    writtenResolution: decidedWritten,
  }) ?? [{}];
  const responses = [];
  for (const fixture of calls) {
    if (answersEventStream(route.endpoint)) {
      responses.push(await getStatusOf(ctx.app, fixture.path ?? route.path, bearer ? { Authorization: bearer } : {}));
      continue;
    }
    let pending = request(ctx.app)[verb](fixture.path ?? route.path.replace(/:\w+/g, String(id)));
    if (bearer) pending = pending.set("Authorization", bearer);
    responses.push(await (fixture.body === undefined ? pending : pending.send(fixture.body as object)));
  }
  return responses;
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

/** Calls each route as `bearer` and lists every answer that is not `status` with a bare message and nothing of company A. */
async function refusals(list: ApiRoute[], status: number, bearer: string, id: (route: ApiRoute) => number = idFor): Promise<string[]> {
  const failures: string[] = [];
  for (const route of list) {
    for (const response of await call(route, id(route), bearer)) {
      if (response.status !== status) failures.push(`${routeKey(route)} → ${response.status}`);
      if (Object.keys(response.body ?? {}).join() !== "message") failures.push(`${routeKey(route)} body ${JSON.stringify(response.body)}`);
      for (const leak of [companyA.name, secret, alice.email, alice.username]) {
        if (response.text.includes(leak)) failures.push(`${routeKey(route)} leaks "${leak}"`);
      }
    }
  }
  return failures;
}

async function statusesSignedOut(list: ApiRoute[]): Promise<string[]> {
  const failures: string[] = [];
  for (const route of list) {
    for (const response of await call(route, idFor(route)))
      if (response.status !== 401) failures.push(`${routeKey(route)} → ${response.status}`);
  }
  return failures;
}

describe("the route walker", () => {
  it("classifies every /api route into exactly one class, by its declaration", () => {
    expect([...walkProblems, ...fixtureProblems(routes)]).toEqual([]);
    expect(routes.every((route) => route.class !== null)).toBe(true);
  });

  it("finds the routes of every class", () => {
    const counts = Object.fromEntries(
      ["company", "thing", "own-user", "platform", "public"].map((name) => [name, routes.filter((route) => route.class === name).length]),
    );
    expect(counts).toEqual({
      company: expect.any(Number),
      thing: expect.any(Number),
      "own-user": expect.any(Number),
      platform: 4,
      public: publicRoutes.length,
    });
    expect(byCompanyParam().length).toBeGreaterThanOrEqual(5);
    expect(byActiveCompany().length).toBeGreaterThanOrEqual(3);
    expect(thingRoutes().length).toBeGreaterThanOrEqual(5);
    expect(ownUserRoutes().length).toBeGreaterThanOrEqual(8);
    expect(routes.map(routeKey)).toEqual(
      expect.arrayContaining([
        "GET /api/companies/:companyId/meetings/upcoming",
        "DELETE /api/documents/:id",
        "POST /api/notifications/:id/read",
      ]),
    );
  });

  it("bites: reports routes not mounted from a declaration, guarded or not, and declarations that do not check their path", () => {
    const app = createApp(ctx.deps);
    const guards = createGuards(ctx.deps);
    const extra = Router();
    const answer: RequestHandler = (_req, res) => {
      res.json({ leaked: true });
    };
    // A guard put in by hand says nothing the walker can trust: only a declaration classifies a route.
    extra.get("/companies/:companyId/meetings/guarded", ...guards.requireCompanyMember(), answer);
    extra.get("/unguarded", answer);
    app.use("/api", extra);
    const declared = (method: "GET" | "POST", path: string, access: Access) =>
      endpoint({ method, path, summary: "A probe", tag: "Probe", access, responses: { 204: null } });
    const nothing = async () => undefined;
    const mounted = [
      bind(declared("GET", "/api/companies/:companyId/leak", { class: "own-user", by: "session" }), nothing),
      bind(declared("GET", "/api/companies/:companyId/elsewhere", { class: "company", by: "active" }), nothing),
      bind(declared("POST", "/api/open", { class: "public" }), nothing),
      bind(declared("GET", "/api/meetings/:meetingId/minutes", { class: "thing", thing: "meeting", param: "id" }), nothing, {
        companyOf: async () => companyA.id,
      }),
    ];
    app.use(mountRoutes(mounted, { guards }));
    app.use("/api/v2", mountRoutes([bind(declared("GET", "/api/moved", { class: "own-user", by: "session" }), nothing)], { guards }));

    const walked = apiRoutes(app);
    expect(walked.problems).toEqual(
      expect.arrayContaining([
        "GET /api/companies/:companyId/meetings/guarded is not mounted from a declaration (shared/api/)",
        "GET /api/unguarded is not mounted from a declaration (shared/api/)",
        "GET /api/companies/:companyId/leak names :companyId in its path, which a session alone checks",
        "GET /api/companies/:companyId/leak names a company (:companyId) but is not guarded by membership of that company",
        "GET /api/companies/:companyId/elsewhere names a company (:companyId) but is not guarded by membership of that company",
        "POST /api/open is declared public but is not on the public list",
        "GET /api/meetings/:meetingId/minutes is guarded on :id, which its path does not have",
        "GET /api/v2/api/moved is mounted from the declaration of GET /api/moved",
      ]),
    );
    expect(walked.routes.find((route) => route.path === "/api/companies/:companyId/meetings/guarded")?.class).toBeNull();
    expect(apiRoutes(ctx.app, [...publicRoutes, "GET /api/companies/:companyId/meetings/upcoming"]).problems).toContain(
      "GET /api/companies/:companyId/meetings/upcoming is on the public list but declared company",
    );
    // The app as it is has none of these problems.
    expect(walkProblems).toEqual([]);
  });

  it("reports the public list or the fixtures naming a route that does not exist", () => {
    expect(apiRoutes(ctx.app, ["GET /api/health", "GET /api/gone"]).problems).toContain(
      "the public list names GET /api/gone, which is no route",
    );
    expect(fixtureProblems(routes, { ...routeFixtures, "GET /api/gone/:id": {} })).toEqual([
      "the fixtures name GET /api/gone/:id, which is no route",
    ]);
  });
});

/** Each class's refusal, proved for every route of the class. */
const refusedClasses = [
  {
    name: "company routes (/api/companies/:companyId/...)",
    list: byCompanyParam,
    caller: () => bob,
    status: 403,
    who: "a member of company B",
  },
  {
    name: "company routes on the caller's active company",
    list: byActiveCompany,
    caller: () => dan,
    status: 403,
    who: "a caller whose active company they are no member of",
  },
  { name: "routes naming a company's thing by id", list: thingRoutes, caller: () => bob, status: 404, who: "a member of company B" },
  {
    name: "own-user routes on /api/users/:id",
    list: () => ownUserRoutes().filter((route) => isAccessBy(route, "param")),
    caller: () => bob,
    status: 403,
    who: "another user",
  },
  {
    name: "own-user routes on a thing of the user's",
    list: () => ownUserRoutes().filter((route) => isAccessBy(route, "owner")),
    caller: () => bob,
    status: 404,
    who: "another user",
  },
  { name: "platform routes", list: platformRoutes, caller: () => alice, status: 403, who: "a company founder who is no platform admin" },
];

describe.each(refusedClasses)("$name", ({ list, caller, status, who }) => {
  it("answer 401 to a caller without a session", async () => {
    expect(list().length).toBeGreaterThanOrEqual(1);
    expect(await statusesSignedOut(list())).toEqual([]);
  });

  it(`give ${who} a ${status} with nothing but a message, and change nothing`, async () => {
    const before = await databaseFingerprint();
    expect(await refusals(list(), status, caller().bearer)).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });
});

describe("refusals that say nothing more", () => {
  it("company routes treat an id that is no company like any company one is not a member of", async () => {
    expect(await refusals(byCompanyParam(), 403, bob.bearer, () => 999_999)).toEqual([]);
  });

  it("another company's thing, or another user's, answers exactly as an id that names nothing", async () => {
    const failures: string[] = [];
    for (const route of [...thingRoutes(), ...ownUserRoutes().filter((route) => isAccessBy(route, "owner"))]) {
      const foreign = await call(route, idFor(route), bob.bearer);
      const missing = await call(route, 999_999, bob.bearer);
      foreign.forEach((response, index) => {
        if (response.status !== missing[index]!.status || response.text !== missing[index]!.text) {
          failures.push(`${routeKey(route)}: ${response.status} ${response.text} vs ${missing[index]!.status} ${missing[index]!.text}`);
        }
      });
    }
    expect(failures).toEqual([]);
  });

  it("platform routes tell anyone else that they are for platform administrators only", async () => {
    for (const route of platformRoutes()) {
      for (const response of await call(route, serviceId, bob.bearer))
        expect(response.body).toEqual({ message: "Platform administrators only" });
    }
  });

  it("routes on the caller's own session answer 401 without one", async () => {
    expect(await statusesSignedOut(ownUserRoutes().filter((route) => isAccessBy(route, "session")))).toEqual([]);
  });
});

describe("every route is real: the right caller gets through it", () => {
  // Last, since getting through changes things (and signing out ends a session).
  it("public routes without a session, the others as company A's founder or the platform admin", async () => {
    const failures: string[] = [];
    const passes = async (route: ApiRoute, bearer: string | undefined, id = idFor(route)) => {
      for (const response of await call(route, id, bearer)) {
        if ([401, 403, 404].includes(response.status) || response.status >= 500)
          failures.push(`${routeKey(route)} → ${response.status} ${response.text}`);
      }
    };
    for (const route of publicOnes()) await passes(route, undefined);
    for (const route of platformRoutes()) await passes(route, pat.bearer);
    // Deleting a thing comes after every other route on it (a document's reads and notes).
    const walk = [...byCompanyParam(), ...byActiveCompany(), ...thingRoutes(), ...ownUserRoutes()];
    for (const route of [...walk.filter((route) => route.method !== "DELETE"), ...walk.filter((route) => route.method === "DELETE")]) {
      // A fresh session each time, so that signing out ends only its own; proved afresh, as a security change needs.
      const login = await request(ctx.app).post("/api/auth/login").send({ username: alice.username, password: alice.password });
      const bearer = `Bearer ${login.body.token}`;
      // Alice has a passkey by now (a route of the walk made it), so the password alone no longer proves her: the
      // session is marked proved in the database, as the re-authentication tests prove it is over HTTP.
      expect(login.status).toBe(200);
      await markSessionsProved(ctx, alice.id);
      await passes(route, bearer);
    }
    expect(failures).toEqual([]);
  });
});

describe("the event stream", () => {
  // Last: every walk above changed company A while the streams were open.
  it("carried company A's changes to its member, and nothing of them to company B's founder or to a departed member", async () => {
    // One change in B after all of A's: once Bob's stream has it, anything of A's would have reached it before.
    const created = await request(ctx.app)
      .post("/api/resolutions")
      .set("Authorization", bob.bearer)
      .send({ title: "B's own", description: "B", type: "Ordinary", deadline: "2026-12-31T23:59:59.999Z", documentIds: [] });
    expect(created.status).toBe(201);
    expect(
      (await request(ctx.app).post(`/api/resolutions/${created.body.id}/vote`).set("Authorization", bob.bearer).send({ vote: "yes" }))
        .status,
    ).toBe(200);
    const ownResolution = (event: { data: unknown }) => (event.data as { resolutionId?: number }).resolutionId === created.body.id;
    await streams.bob.next((event) => event.event === "votes" && ownResolution(event));

    expect([...new Set(streams.carol.events.map((event) => event.event))]).toEqual(
      expect.arrayContaining(["votes", "resolution", "meeting", "document"]),
    );
    // Besides B's resolution, Bob may hear only his own notifications.
    const others = streams.bob.events.filter((event) => !ownResolution(event));
    const notificationIds = others.filter((event) => event.event === "notification").map((event) => (event.data as { id: number }).id);
    const owners = notificationIds.length
      ? await ctx.db.select({ userId: notifications.userId }).from(notifications).where(inArray(notifications.id, notificationIds))
      : [];
    expect(owners.filter((owner) => owner.userId !== bob.id)).toEqual([]);
    expect(others.filter((event) => event.event !== "notification")).toEqual([]);
    expect(streams.dan.events).toEqual([]);
  });
});
