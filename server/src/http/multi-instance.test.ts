import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { memberships } from "../db/schema";
import { resolutionFixtures } from "../testing/resolution-fixtures";
import { listenOn, openEventStream } from "../testing/event-stream-client";
import { useSecondInstance, useTestContext } from "../testing/test-context";

/**
 * Instances behind a load balancer agree: what one keeps in memory (recently seen sessions, open event streams)
 * follows what another changed, through the database's notifications. On the server-pg run the second instance
 * has its own connection pool and its own listening connection to the same Postgres.
 */
const ctx = useTestContext();
const second = useSecondInstance(ctx);

describe("two instances on one database", () => {
  it("serve one session: signed in on one, known on the other, signed out on both", async () => {
    const user = await ctx.signUp();
    const onSecond = await request(second.app).get("/api/auth/user").set("Authorization", user.bearer);
    expect(onSecond.status).toBe(200);
    expect(onSecond.body.id).toBe(user.id);
    // The first instance has the session in its cache now, and answers from it.
    expect((await request(ctx.app).get("/api/auth/user").set("Authorization", user.bearer)).status).toBe(200);
    expect(await ctx.countQueries(() => request(ctx.app).get("/api/auth/user").set("Authorization", user.bearer))).toBe(0);

    expect((await request(second.app).post("/api/auth/logout").set("Authorization", user.bearer)).status).toBe(204);
    // As the sign-out's notification reaches the first instance (on a busy Postgres, a moment later); without it, that
    // instance would answer from its cache for 30 s.
    await expect
      .poll(async () => (await request(ctx.app).get("/api/auth/user").set("Authorization", user.bearer)).status, { timeout: 2000 })
      .toBe(401);
  });

  it("share the login rate limit: failures on either count together", async () => {
    await ctx.signUp({ username: "shared-limit", password: "right-password" });
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const instance = attempt % 2 === 0 ? ctx.app : second.app;
      expect((await request(instance).post("/api/auth/login").send({ username: "shared-limit", password: "wrong" })).status).toBe(401);
    }
    expect((await request(second.app).post("/api/auth/login").send({ username: "shared-limit", password: "right-password" })).status).toBe(
      429,
    );
    expect((await request(ctx.app).post("/api/auth/login").send({ username: "shared-limit", password: "right-password" })).status).toBe(
      429,
    );
  });

  it("refuse a removed member on one instance at once when the membership was removed on the other", async () => {
    const fixtures = resolutionFixtures(ctx);
    const { founder, voters } = await fixtures.boardWith(1);
    const id = await fixtures.created(founder);
    const leaving = voters[1]!;
    expect((await request(second.app).get(`/api/resolutions/${id}`).set("Authorization", leaving.bearer)).status).toBe(200);

    await ctx.db.delete(memberships).where(eq(memberships.userId, leaving.id));
    // As the removal's notification reaches the other instance (on a busy Postgres, a moment later); without it, that
    // instance would keep the member's session 30 s.
    await expect
      .poll(async () => (await request(second.app).get(`/api/resolutions/${id}`).set("Authorization", leaving.bearer)).status, {
        timeout: 2000,
      })
      .toBe(404);
  });

  it("carry a vote cast on one to an event stream open on the other", async () => {
    const fixtures = resolutionFixtures(ctx);
    const { founder, voters } = await fixtures.boardWith(1);
    const id = await fixtures.created(founder);
    const listening = await listenOn(second.app);
    const stream = await openEventStream(listening.url, founder.bearer);
    try {
      expect(stream.status).toBe(200);
      expect((await fixtures.vote(voters[1]!, id, "abstain")).status).toBe(200);
      // The resolution's creation may be heard after the stream opened (its counts all 0, under load): the vote's event is the one with a vote.
      const event = await stream.next((received) => received.event === "votes" && (received.data as { total: number }).total > 0);
      expect(event.data).toEqual({ resolutionId: id, yes: 0, no: 0, abstain: 1, total: 1 });
    } finally {
      stream.close();
      await listening.close();
    }
  });

  // In a burst of votes on one resolution every pooled connection can be waiting on its row lock; the counts are read
  // on the listening connection, so they reach the streams meanwhile.
  it.runIf(process.env.QUORUM_TEST_DB === "postgres")(
    "publish the counts while every pooled connection of the streams' instance waits on a lock",
    async () => {
      const fixtures = resolutionFixtures(ctx);
      const { founder, voters } = await fixtures.boardWith(1);
      const id = await fixtures.created(founder);
      // The set-up's notifications are heard first: one arriving later would have the stream read its companies again,
      // and this test leaves that instance no connection to read with.
      await ctx.notificationsHeard(second.live);
      const listening = await listenOn(second.app);
      const stream = await openEventStream(listening.url, founder.bearer);
      expect(stream.status).toBe(200);
      let release!: () => void;
      const released = new Promise<void>((done) => (release = done));
      let held!: () => void;
      const holding = new Promise<void>((done) => (held = done));
      // A transaction of the first instance holds a lock until the event has arrived (or the wait for it failed)…
      const holder = ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(424242)`);
        held();
        await released;
      });
      await holding;
      // …and every connection of the second instance's pool (it holds 10) waits for that lock meanwhile.
      // (`then` sends a drizzle query: it is lazy until then.)
      const waiting = Array.from({ length: 10 }, () => second.db.execute(sql`select pg_advisory_xact_lock(424242)`).then(() => undefined));
      try {
        await expect
          .poll(async () => {
            const result = (await ctx.db.execute(
              sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event = 'advisory'`,
            )) as unknown as { rows: { waiting: number }[] };
            return result.rows[0]?.waiting;
          })
          .toBe(10);
        expect((await fixtures.vote(voters[1]!, id, "yes")).status).toBe(200);
        const event = await stream.next((received) => received.event === "votes" && (received.data as { total: number }).total === 1);
        expect(event.data).toEqual({ resolutionId: id, yes: 1, no: 0, abstain: 0, total: 1 });
      } finally {
        release();
        await holder;
        await Promise.all(waiting);
        stream.close();
        await listening.close();
      }
    },
    20_000,
  );
});
