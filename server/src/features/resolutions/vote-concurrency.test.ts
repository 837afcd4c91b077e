import { and, asc, eq, inArray } from "drizzle-orm";
import request from "supertest";
import { auditEvents, votes } from "../../db/schema";
import { useTestContext } from "../../testing/test-context";
import { decideDue } from "./resolution-decision";
import { resolutionFixtures } from "../../testing/resolution-fixtures";

const ctx = useTestContext();
beforeEach(() => ctx.clock.set("2026-06-01T09:00:00.000Z"));

const { inAWeek, boardWith, created, vote, details, allVote } = resolutionFixtures(ctx);

describe.runIf(process.env.QUORUM_TEST_DB === "postgres")("concurrency (real Postgres)", () => {
  it("50 concurrent vote changes by 5 members leave 5 vote rows whose counts are each member's last accepted vote", async () => {
    // The founder never votes, so the resolution stays pending throughout.
    const { founder, voters } = await boardWith(5);
    const id = await created(founder);
    const members = voters.slice(1);
    const choices = ["yes", "no", "abstain"] as const;
    const responses = await Promise.all(Array.from({ length: 50 }, (_, index) => vote(members[index % 5]!, id, choices[(index * 7) % 3]!)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const rows = await ctx.db.select().from(votes).where(eq(votes.resolutionId, id));
    expect(rows).toHaveLength(5);
    // Audit rows are written under the row lock, so their order is the order the votes were accepted in.
    const audit = await ctx.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, String(id)), inArray(auditEvents.action, ["resolution.voted", "resolution.vote_changed"])))
      .orderBy(asc(auditEvents.id));
    const last = new Map<number, string>();
    for (const row of audit) last.set(row.actorId!, String(row.details!.to ?? row.details!.vote));
    expect(new Map(rows.map((row) => [row.userId, row.vote]))).toEqual(last);
    const counts = (await request(ctx.app).get(`/api/resolutions/${id}/votes`).set("Authorization", founder.bearer)).body;
    const expected = { yes: 0, no: 0, abstain: 0 } as Record<string, number>;
    for (const choice of last.values()) expected[choice] = (expected[choice] ?? 0) + 1;
    expect(counts).toMatchObject({ ...expected, total: 5 });
  });

  it("a vote racing the final vote is counted in the decision or refused, never both", async () => {
    for (let round = 0; round < 8; round += 1) {
      const { founder, voters } = await boardWith(2);
      const id = await created(founder);
      await allVote(voters, id, ["no", "no"]);
      // The founder changes to yes while the last voter casts the final vote.
      const [change, final] = await Promise.all([vote(founder, id, "yes"), vote(voters[2]!, id, "yes")]);
      expect(final.status).toBe(200);
      const certificate = (await details(founder, id)).certificate!;
      const founderVote = certificate.votes.find((row) => row.userId === founder.id)!.vote;
      if (change.status === 200) expect(founderVote).toBe("yes");
      else {
        expect(change.status).toBe(409);
        expect(founderVote).toBe("no");
      }
    }
  });

  it("a vote racing the deadline is counted in the decision or refused, never both", async () => {
    for (let round = 0; round < 8; round += 1) {
      ctx.clock.set("2026-06-01T09:00:00.000Z");
      const { founder, voters } = await boardWith(2);
      const id = await created(founder);
      await allVote(voters, id, ["yes", "yes"]);
      const pastDeadline = new Date(inAWeek().getTime() + 1);
      const [late] = await Promise.all([
        vote(voters[2]!, id, "no"),
        new Promise((resolve) => setTimeout(resolve, round * 2)).then(() => {
          ctx.clock.set(pastDeadline);
          return decideDue(ctx.deps);
        }),
      ]);
      const certificate = (await details(founder, id)).certificate!;
      const counted = certificate.votes.some((row) => row.userId === voters[2]!.id);
      if (late.status === 200) expect(counted).toBe(true);
      else {
        expect(late.status).toBe(409);
        expect(counted).toBe(false);
      }
    }
  });
});
