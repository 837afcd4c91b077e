import { sql } from "drizzle-orm";
import request from "supertest";
import { useTestContext, type TestContext } from "../../testing/test-context";
import { resolutionFixtures } from "../../testing/resolution-fixtures";

/**
 * The vote poll is kept by each instance until what it shows changes: every change that matters is announced to
 * every instance, so a repeated poll makes no query and still never shows counts a vote or a conflict has changed.
 * The changes here are made on a second instance, so only the announcement can tell the first.
 */
const ctx = useTestContext();
const fixtures = resolutionFixtures(ctx);
let second: Awaited<ReturnType<TestContext["openSecondInstance"]>>;
beforeAll(async () => {
  second = await ctx.openSecondInstance();
});
afterAll(() => second.close());
// On Postgres a change reaches the other instance a few milliseconds after its commit (the notification's trip); a
// kept answer nobody told would stay for 30 s, past this wait.
const soon = (assertion: () => Promise<unknown>) => vi.waitFor(assertion, { timeout: 2_000, interval: 20 });

const poll = (viewer: { bearer: string }, id: number) =>
  request(ctx.app).get(`/api/resolutions/${id}/votes`).set("Authorization", viewer.bearer);
/** The poll is kept: once the notifications of the test's own setup have arrived, a repeated poll makes no query. */
const kept = (viewer: { bearer: string }, id: number) => soon(async () => expect(await ctx.countQueries(() => poll(viewer, id))).toBe(0));

describe("the vote poll's cache", () => {
  it("answers a repeated poll without a query, and a vote on another instance at once", async () => {
    const { founder, voters } = await fixtures.boardWith(2);
    const id = await fixtures.created(founder);
    expect((await poll(founder, id)).body).toEqual({ yes: 0, no: 0, abstain: 0, total: 0, userVote: null });
    await kept(founder, id);

    const vote = await request(second.app).post(`/api/resolutions/${id}/vote`).set("Authorization", voters[1]!.bearer).send({ vote: "no" });
    expect(vote.status).toBe(200);
    await soon(async () => expect((await poll(founder, id)).body).toEqual({ yes: 0, no: 1, abstain: 0, total: 1, userVote: null }));
    // Each reader's own vote is theirs: the voter's poll names it, the founder's does not.
    expect((await poll(voters[1]!, id)).body).toEqual({ yes: 0, no: 1, abstain: 0, total: 1, userVote: "no" });
  });

  // The embedded database delivers a notification as the writing statement returns: there is no moment to catch.
  it.runIf(process.env.QUORUM_TEST_DB === "postgres")(
    "shows the instance's own vote on its next poll, before the vote's notification has arrived",
    async () => {
      const { founder, voters } = await fixtures.boardWith(2);
      const id = await fixtures.created(founder);
      expect((await poll(founder, id)).body.total).toBe(0);
      await kept(founder, id);
      // Postgres hands a listening connection its notifications only between statements: while this one sleeps, the
      // vote's notification waits, and only the instance's own forgetting can make the next poll read again.
      const reader = ctx.deps.live.reader();
      if (!reader) throw new Error("the instance is not listening");
      // (then: a drizzle query runs only once asked for its result)
      const busy = reader.execute(sql`select pg_sleep(1.5)`).then(() => undefined);
      try {
        const started = Date.now();
        expect((await fixtures.vote(voters[1]!, id, "yes")).status).toBe(200);
        expect((await poll(founder, id)).body).toEqual({ yes: 1, no: 0, abstain: 0, total: 1, userVote: null });
        // Still inside the sleep: otherwise the notification may have come and this proved nothing.
        expect(Date.now() - started).toBeLessThan(1_500);
      } finally {
        await busy;
      }
    },
  );

  it("reads again once a conflict declared on another instance decided the resolution", async () => {
    const { founder, voters } = await fixtures.boardWith(2);
    const id = await fixtures.created(founder);
    // Two of three voted yes; the third has not voted.
    await fixtures.allVote(voters, id, ["yes", "yes"]);
    expect((await poll(founder, id)).body.total).toBe(2);
    await kept(founder, id);

    const declared = await request(second.app)
      .post(`/api/resolutions/${id}/conflict`)
      .set("Authorization", voters[2]!.bearer)
      .send({ reason: "I hold shares in the supplier" });
    expect(declared.status).toBe(204);
    // Everyone who may still vote has voted: the poll reads again, and the read decides the resolution.
    await soon(async () => expect(await ctx.countQueries(() => poll(founder, id))).toBeGreaterThan(0));
    expect((await fixtures.details(founder, id)).status).toBe("approved");
  });

  it("reads again once a conflict is withdrawn on another instance: who may vote changed", async () => {
    const { founder, voters } = await fixtures.boardWith(2);
    const id = await fixtures.created(founder);
    const conflict = (app: typeof ctx.app, method: "post" | "delete") => {
      const address = `/api/resolutions/${id}/conflict`;
      const sent = method === "post" ? request(app).post(address) : request(app).delete(address);
      return sent.set("Authorization", voters[2]!.bearer).send({ reason: "I hold shares in the supplier" });
    };
    expect((await conflict(ctx.app, "post")).status).toBe(204);
    await poll(founder, id);
    await kept(founder, id);

    expect((await conflict(second.app, "delete")).status).toBe(204);
    await soon(async () => expect(await ctx.countQueries(() => poll(founder, id))).toBeGreaterThan(0));
  });
});
