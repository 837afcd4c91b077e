import { and, asc, eq, sql } from "drizzle-orm";
import request from "supertest";
import { auditChainHeads, auditEvents, notifications, votes } from "../../db/schema";
import { useTestContext } from "../../testing/test-context";
import { day, resolutionFixtures } from "../../testing/resolution-fixtures";

const ctx = useTestContext();
beforeEach(() => ctx.clock.set("2026-06-01T09:00:00.000Z"));

const { boardWith, created, vote, details, allVote } = resolutionFixtures(ctx);

describe("voting", () => {
  it("creates, then replaces, the caller's one vote, and answers the counts with their own", async () => {
    const { founder, voters } = await boardWith(2);
    const id = await created(founder);
    const first = await vote(voters[1]!, id, "yes", "Good plan");
    expect(first.body).toEqual({ yes: 1, no: 0, abstain: 0, total: 1, userVote: "yes" });
    const changed = await vote(voters[1]!, id, "no");
    expect(changed.body).toEqual({ yes: 0, no: 1, abstain: 0, total: 1, userVote: "no" });
    const counts = await request(ctx.app).get(`/api/resolutions/${id}/votes`).set("Authorization", founder.bearer);
    expect(counts.body).toEqual({ yes: 0, no: 1, abstain: 0, total: 1, userVote: null });
    expect(await ctx.db.select().from(votes).where(eq(votes.resolutionId, id))).toHaveLength(1);
    const actions = await ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(id)))
      .orderBy(asc(auditEvents.id));
    expect(actions.map((row) => row.action)).toEqual(["resolution.created", "resolution.voted", "resolution.vote_changed"]);
    // Who has voted, never how, while pending.
    const shown = await details(founder, id);
    expect(shown.voters).toEqual([{ userId: voters[1]!.id, name: expect.any(String) }]);
    expect(Object.keys(shown.voters[0]!).sort()).toEqual(["name", "userId"]);
    expect(shown.certificate).toBeNull();
  });

  it("takes a vote that leaves others to vote in one statement, its session from the cache; the vote that completes the tally decides", async () => {
    const { founder, voters, company } = await boardWith(2);
    const id = await created(founder);
    // A read puts each voter's session in the cache first, so every vote below finds it there.
    for (const voter of voters) await details(voter, id);
    let first: Awaited<ReturnType<typeof vote>> | undefined;
    expect(await ctx.countQueries(async () => (first = await vote(voters[1]!, id, "yes", "Good plan")))).toBe(1);
    expect(first?.body).toEqual({ yes: 1, no: 0, abstain: 0, total: 1, userVote: "yes" });
    expect(await ctx.countQueries(() => vote(voters[1]!, id, "abstain"))).toBe(1);
    expect(await ctx.countQueries(() => vote(founder, id, "no"))).toBe(1);
    const stored = await ctx.db
      .select({ userId: votes.userId, vote: votes.vote, comment: votes.comment })
      .from(votes)
      .where(eq(votes.resolutionId, id));
    expect(stored.sort((a, b) => a.userId - b.userId)).toEqual(
      [
        { userId: founder.id, vote: "no", comment: null },
        { userId: voters[1]!.id, vote: "abstain", comment: null },
      ].sort((a, b) => a.userId - b.userId),
    );
    // The last vote takes the transaction that decides.
    let last: Awaited<ReturnType<typeof vote>> | undefined;
    expect(await ctx.countQueries(async () => (last = await vote(voters[2]!, id, "yes")))).toBeGreaterThan(1);
    expect(last?.body).toEqual({ yes: 1, no: 1, abstain: 1, total: 3, userVote: "yes" });
    expect((await details(founder, id)).status).toBe("rejected");
    const actions = await ctx.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(id)))
      .orderBy(asc(auditEvents.id));
    expect(actions).toEqual([
      { action: "resolution.created", details: expect.anything() },
      { action: "resolution.voted", details: { vote: "yes" } },
      { action: "resolution.vote_changed", details: { from: "yes", to: "abstain" } },
      { action: "resolution.voted", details: { vote: "no" } },
      { action: "resolution.voted", details: { vote: "yes" } },
      { action: "resolution.decided", details: expect.anything() },
    ]);
    const verified = await request(ctx.app).get(`/api/companies/${company.id}/audit/verify`).set("Authorization", founder.bearer);
    expect(verified.body).toMatchObject({ ok: true });
  });

  it.runIf(process.env.QUORUM_TEST_DB === "postgres")(
    "a whole board voting at once: every vote counted once, the resolution decided once with all of them, the chain unbroken",
    async () => {
      for (let round = 0; round < 3; round += 1) {
        const { founder, voters, company } = await boardWith(11);
        const id = await created(founder);
        const choices = voters.map((_, index) => (index % 3 === 0 ? "no" : "yes"));
        const answers = await Promise.all(voters.map((voter, index) => vote(voter, id, choices[index]!)));
        expect(answers.map((answer) => answer.status)).toEqual(voters.map(() => 200));
        // Taken one after another under the resolution's lock, each answer counts every vote before it.
        const totals = answers.map((answer) => answer.body.total as number).sort((a, b) => a - b);
        expect(totals).toEqual(voters.map((_, index) => index + 1));
        const shown = await details(founder, id);
        expect(shown.status).toBe("approved");
        expect(shown.certificate?.votes).toHaveLength(12);
        expect(shown.certificate).toMatchObject({ yes: 8, no: 4, abstain: 0 });
        const decided = await ctx.db
          .select({ action: auditEvents.action })
          .from(auditEvents)
          .where(and(eq(auditEvents.targetId, String(id)), eq(auditEvents.action, "resolution.decided")));
        expect(decided).toHaveLength(1);
        const verified = await request(ctx.app).get(`/api/companies/${company.id}/audit/verify`).set("Authorization", founder.bearer);
        expect(verified.body).toMatchObject({ ok: true, count: 14 });
      }
    },
  );

  it("a vote whose statement fails answers the error and leaves neither the vote nor its event; the next vote is taken", async () => {
    // Taken in one call (someone still to vote after it), then in the transaction that decides (the last vote).
    for (const decisive of [false, true]) {
      const { founder, voters, company } = await boardWith(2);
      const id = await created(founder);
      if (decisive) await allVote(voters, id, ["yes", "no"]);
      const voter = voters[2]!;
      const [headBefore] = await ctx.db.select().from(auditChainHeads).where(eq(auditChainHeads.chainKey, company.id));
      // The event's insert fails after the vote row was written: the statement, or the transaction, rolls back.
      await ctx.db.execute(sql`
        create or replace function fail_vote_event() returns trigger language plpgsql as $$
        begin raise exception 'vote event refused for the test'; end $$`);
      await ctx.db.execute(
        sql`create trigger fail_vote_event before insert on audit_events for each row execute function fail_vote_event()`,
      );
      try {
        const refused = await vote(voter, id, "yes");
        expect({ decisive, status: refused.status }).toEqual({ decisive, status: 500 });
        expect(refused.body).toMatchObject({ message: "Internal error" });
      } finally {
        await ctx.db.execute(sql`drop trigger fail_vote_event on audit_events`);
        await ctx.db.execute(sql`drop function fail_vote_event()`);
      }
      const votersWithVotes = async () =>
        (await ctx.db.select({ userId: votes.userId }).from(votes).where(eq(votes.resolutionId, id))).map((row) => row.userId).sort();
      expect(await votersWithVotes()).toEqual(decisive ? [founder.id, voters[1]!.id].sort() : []);
      expect(await ctx.db.select().from(auditChainHeads).where(eq(auditChainHeads.chainKey, company.id))).toEqual([headBefore]);
      expect((await details(founder, id)).status).toBe("pending");
      const taken = await vote(voter, id, "no");
      expect(taken.body).toEqual(
        decisive ? { yes: 1, no: 2, abstain: 0, total: 3, userVote: "no" } : { yes: 0, no: 1, abstain: 0, total: 1, userVote: "no" },
      );
      const actions = await ctx.db
        .select({ action: auditEvents.action })
        .from(auditEvents)
        .where(eq(auditEvents.targetId, String(id)))
        .orderBy(asc(auditEvents.id));
      expect(actions.map((row) => row.action)).toEqual(
        decisive
          ? ["resolution.created", "resolution.voted", "resolution.voted", "resolution.voted", "resolution.decided"]
          : ["resolution.created", "resolution.voted"],
      );
    }
  });

  it("refuses observers (403) and bad votes (400)", async () => {
    const { founder, others } = await boardWith(1, ["observer"]);
    const id = await created(founder);
    expect((await vote(others[0]!, id, "yes")).status).toBe(403);
    expect((await vote(founder, id, "maybe")).status).toBe(400);
  });

  it("refuses an observer before anything else: a 403, not a 409, and the observer's call decides nothing", async () => {
    const { founder, voters, others } = await boardWith(1, ["observer"]);
    const id = await created(founder);
    await vote(voters[0]!, id, "yes");
    // Past the deadline with a vote cast: due its decision, which the next read or vote makes.
    ctx.clock.advance(8 * day);
    const refused = await vote(others[0]!, id, "yes");
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Observers cannot vote");
    const decided = await ctx.db
      .select({ action: auditEvents.action, actorId: auditEvents.actorId })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, String(id)), eq(auditEvents.action, "resolution.decided")));
    expect(decided).toEqual([]);
  });

  it("decides Unanimous as rejected once all voted and one said no; a vote after answers 409; every member is told", async () => {
    const { founder, voters, others } = await boardWith(2, ["observer"]);
    const id = await created(founder, { type: "Unanimous" });
    await allVote(voters, id, ["yes", "yes", "no"]);
    const shown = await details(founder, id);
    expect(shown.status).toBe("rejected");
    expect(shown.decidedAt).toBe(ctx.clock.now().toISOString());
    expect(shown.certificate).toMatchObject({
      outcome: "rejected",
      yes: 2,
      no: 1,
      abstain: 0,
      rule: "a Unanimous resolution needs a yes from every eligible voter",
    });
    const late = await vote(voters[2]!, id, "yes");
    expect(late.status).toBe(409);
    const told = await ctx.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(and(eq(notifications.kind, "resolutionDecided"), eq(notifications.link, `/resolutions/${id}`)));
    expect(told.map((row) => row.userId).sort()).toEqual([...voters, ...others].map((person) => person.id).sort());
  });

  it("approves a Special resolution at exactly 75% and rejects one just below, abstentions excluded", async () => {
    const four = await boardWith(3);
    const exactly = await created(four.founder, { type: "Special" });
    await allVote(four.voters, exactly, ["yes", "yes", "yes", "no"]);
    expect((await details(four.founder, exactly)).status).toBe("approved");

    const five = await boardWith(4);
    const withAbstention = await created(five.founder, { type: "Special" });
    await allVote(five.voters, withAbstention, ["yes", "yes", "yes", "no", "abstain"]);
    expect((await details(five.founder, withAbstention)).status).toBe("approved");
    const below = await created(five.founder, { type: "Special" });
    await allVote(five.voters, below, ["yes", "yes", "no", "abstain", "abstain"]);
    expect((await details(five.founder, below)).status).toBe("rejected");
  });

  it("rejects an Ordinary tie", async () => {
    const { founder, voters } = await boardWith(3);
    const id = await created(founder);
    await allVote(voters, id, ["yes", "yes", "no", "no"]);
    const shown = await details(founder, id);
    expect(shown.status).toBe("rejected");
    expect(shown.explanation).toBe(
      "Rejected: 2 yes, 2 no, 0 abstain of 4 eligible; an Ordinary resolution needs more yes than no votes; quorum 3 of 4 met",
    );
  });

  it("never counts observers as eligible", async () => {
    const { founder, voters } = await boardWith(1, ["observer", "observer"]);
    const id = await created(founder);
    await allVote(voters, id, ["yes", "yes"]);
    const shown = await details(founder, id);
    expect(shown.status).toBe("approved");
    expect(shown.certificate!.eligible.map((person) => person.role).sort()).toEqual(["founder", "member"]);
  });
});
