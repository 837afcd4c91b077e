import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { secondFactorRequiredCode } from "../../../../shared/api-error";
import { sessions, votes } from "../../db/schema";
import { sessionSecondFactorMessage } from "../../http/guards";
import { sessionIdleLimitMs } from "../../http/session";
import { enableTotp, withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestContext } from "../../testing/test-context";
import { resolutionFixtures } from "../../testing/resolution-fixtures";

// A vote names its caller from the session cache and confirms the session in the database with the vote itself.
// These change a session or a user without the notification that would clear the cache (its trigger is off for
// the change), as a revocation on another instance looks in the moment before its notification arrives here.

const ctx = useTestContext();
const { boardWith, created, vote, details } = resolutionFixtures(ctx);

/** Runs `change` with the trigger that tells every instance about it switched off. */
async function unheard(table: "sessions" | "users", trigger: string, change: () => Promise<unknown>) {
  await ctx.db.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`));
  try {
    await change();
  } finally {
    await ctx.db.execute(sql.raw(`alter table ${table} enable trigger ${trigger}`));
  }
}

const votesOn = (id: number) => ctx.db.select().from(votes).where(eq(votes.resolutionId, id));

describe("a vote and its session", () => {
  it("answers 401 and takes nothing for a session gone (revoked, expired, idle) that this instance still holds, whether the vote would decide or not", async () => {
    const endings = {
      revoked: (userId: number) => ctx.db.delete(sessions).where(eq(sessions.userId, userId)),
      expired: (userId: number) => ctx.db.update(sessions).set({ expiresAt: ctx.clock.now() }).where(eq(sessions.userId, userId)),
      idle: (userId: number) =>
        ctx.db
          .update(sessions)
          .set({ lastUsedAt: new Date(ctx.clock.now().getTime() - sessionIdleLimitMs) })
          .where(eq(sessions.userId, userId)),
    };
    for (const [ending, end] of Object.entries(endings)) {
      for (const decisive of [false, true]) {
        const { founder, voters } = await boardWith(1);
        const director = voters[1]!;
        const id = await created(founder);
        // Taken in one call when someone is still to vote after it; in the transaction that decides when it is the last.
        if (decisive) expect((await vote(founder, id, "yes")).status).toBe(200);
        await ctx.notificationsHeard();
        await details(director, id); // the director's session is now in this instance's cache
        await unheard("sessions", "sessions_notify_auth", () => end(director.id));
        let refused: Awaited<ReturnType<typeof vote>> | undefined;
        const queries = await ctx.countQueries(async () => (refused = await vote(director, id, "yes")));
        expect({ ending, decisive, status: refused?.status }).toEqual({ ending, decisive, status: 401 });
        // The guard let it through from the cache (a session read would have refused it in one query): the vote's own
        // statements refused it.
        expect(queries).toBeGreaterThan(1);
        expect((await votesOn(id)).map((row) => row.userId)).toEqual(decisive ? [founder.id] : []);
        expect((await details(founder, id)).status).toBe("pending");
      }
    }
  });

  it.runIf(process.env.QUORUM_TEST_DB === "postgres")(
    "answers 401 for a session revoked while the vote waited for the resolution's lock",
    async () => {
      const { founder, voters } = await boardWith(2);
      const director = voters[1]!;
      const id = await created(founder);
      await details(director, id);
      let pending: Promise<Awaited<ReturnType<typeof vote>>> | undefined;
      await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select id from resolutions where id = ${id} for update`);
        // The vote passes its guard (the session is cached) and waits for the lock this transaction holds (`then`
        // sends the request now, not when it is awaited).
        pending = vote(director, id, "yes").then((response) => response);
        await vi.waitFor(
          async () => {
            const waiting = await ctx.db.execute(
              sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%quorum_vote_if_clear%'`,
            );
            expect((waiting as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
          },
          { timeout: 5_000, interval: 20 },
        );
        await ctx.db.delete(sessions).where(eq(sessions.userId, director.id));
      });
      expect((await pending!).status).toBe(401);
      expect(await votesOn(id)).toEqual([]);
    },
  );

  it("refuses, where the company asks for a second factor, a voter whose session no longer counts one though this instance still holds it so", async () => {
    const { founder, company, voters } = await boardWith(2);
    const id = await created(founder);
    const admin = await withSecondFactorSession(ctx, founder);
    const director = voters[1]!;
    await enableTotp(ctx, director);
    const on = await request(ctx.app).put(`/api/companies/${company.id}`).set("Authorization", admin.bearer).send({
      name: "Guarded Board",
      industry: "Technology",
      location: "London, United Kingdom",
      stage: "seed",
      requireSecondFactor: true,
    });
    expect(on.status).toBe(200);
    expect((await vote(director, id, "yes")).status).toBe(200);

    await details(director, id);
    // The company asks whether the session passed a second factor: the database says it did not, the cache says it did.
    await unheard("sessions", "sessions_notify_auth", () =>
      ctx.db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.userId, director.id)),
    );
    const refused = await vote(director, id, "no");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: sessionSecondFactorMessage, code: secondFactorRequiredCode });
    expect((await votesOn(id)).map((row) => row.vote)).toEqual(["yes"]);
  });
});
