import { and, eq } from "drizzle-orm";
import request from "supertest";
import type { Certificate } from "../../../../shared/resolutions";
import { auditEvents, memberships, votes } from "../../db/schema";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { decideDue, startResolutionSweep } from "./resolution-decision";
import { day, resolutionFixtures } from "../../testing/resolution-fixtures";

const ctx = useTestContext();
beforeEach(() => ctx.clock.set("2026-06-01T09:00:00.000Z"));

const { inAWeek, boardWith, created, vote, details, allVote } = resolutionFixtures(ctx);

describe("conflict of interest", () => {
  it("withdraws the vote, refuses voting, and shrinks the denominator: Unanimous approved when every non-recused voter says yes", async () => {
    const { founder, voters } = await boardWith(2);
    const id = await created(founder, { type: "Unanimous" });
    const [alice, bob, carol] = voters as [SignedUp, SignedUp, SignedUp];
    await vote(carol, id, "no");
    const declared = await request(ctx.app)
      .post(`/api/resolutions/${id}/conflict`)
      .set("Authorization", carol.bearer)
      .send({ reason: "I own the supplier" });
    expect(declared.status).toBe(204);
    expect(await ctx.db.select().from(votes).where(eq(votes.resolutionId, id))).toHaveLength(0);
    expect((await vote(carol, id, "yes")).status).toBe(409);
    // Withdrawing and declaring again is allowed while pending.
    expect((await request(ctx.app).delete(`/api/resolutions/${id}/conflict`).set("Authorization", carol.bearer)).status).toBe(204);
    expect(
      (
        await request(ctx.app)
          .post(`/api/resolutions/${id}/conflict`)
          .set("Authorization", carol.bearer)
          .send({ reason: "I own the supplier" })
      ).status,
    ).toBe(204);
    await allVote([alice, bob], id, ["yes", "yes"]);
    const shown = await details(founder, id);
    expect(shown.status).toBe("approved");
    expect(shown.certificate).toMatchObject({ yes: 2, no: 0, recused: [{ userId: carol.id, reason: "I own the supplier" }] });
    expect(shown.certificate!.eligible.map((person) => person.userId).sort()).toEqual([alice.id, bob.id].sort());
    expect(shown.explanation).toContain("of 2 eligible (1 recused)");
    const actions = await ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(id)));
    expect(actions.map((row) => row.action)).toEqual(
      expect.arrayContaining(["resolution.conflict_declared", "resolution.conflict_withdrawn", "resolution.decided"]),
    );
    // Decided: the declaration can no longer change.
    expect((await request(ctx.app).delete(`/api/resolutions/${id}/conflict`).set("Authorization", carol.bearer)).status).toBe(409);
  });

  it("decides when the last voter who had not voted declares a conflict", async () => {
    const { founder, voters } = await boardWith(2);
    const id = await created(founder);
    await allVote(voters, id, ["yes", "no"]);
    await request(ctx.app)
      .post(`/api/resolutions/${id}/conflict`)
      .set("Authorization", voters[2]!.bearer)
      .send({ reason: "Related party" });
    expect((await details(founder, id)).status).toBe("rejected");
  });

  it("refuses observers and a blank reason", async () => {
    const { founder, others } = await boardWith(1, ["observer"]);
    const id = await created(founder);
    expect(
      (await request(ctx.app).post(`/api/resolutions/${id}/conflict`).set("Authorization", others[0]!.bearer).send({ reason: "x" })).status,
    ).toBe(403);
    expect(
      (await request(ctx.app).post(`/api/resolutions/${id}/conflict`).set("Authorization", founder.bearer).send({ reason: " " })).status,
    ).toBe(400);
  });
});

describe("the deadline and quorum", () => {
  it("rejects without quorum at the deadline, explained as no quorum; a vote after the deadline answers 409", async () => {
    const { founder, company, voters } = await boardWith(5);
    const id = await created(founder);
    await allVote(voters, id, ["yes", "yes"]);
    ctx.clock.set(inAWeek());
    ctx.clock.advance(1);
    expect((await vote(voters[3]!, id, "yes")).status).toBe(409);
    const list = await request(ctx.app).get(`/api/companies/${company.id}/resolutions`).set("Authorization", founder.bearer);
    expect(list.body[0]).toMatchObject({ id, status: "rejected" });
    expect(list.body[0].explanation).toContain("no quorum");
    const shown = await details(founder, id);
    expect(shown.certificate!.quorum).toEqual({ rule: "more than half of the eligible voters", required: 4, present: 2, met: false });
  });

  it("stays pending (expired) at the deadline with no vote cast", async () => {
    const { founder } = await boardWith(1);
    const id = await created(founder);
    ctx.clock.advance(8 * day);
    expect((await details(founder, id)).status).toBe("pending");
  });

  it("uses the company's quorum, which only founders and admins change", async () => {
    const { founder, company, voters } = await boardWith(5);
    const put = (who: SignedUp, quorumPercent: number | null) =>
      request(ctx.app).put(`/api/companies/${company.id}/quorum`).set("Authorization", who.bearer).send({ quorumPercent });
    expect((await put(voters[1]!, 30)).status).toBe(403);
    expect((await put(founder, 101)).status).toBe(400);
    const saved = await put(founder, 30);
    expect(saved.body).toEqual({ quorumPercent: 30, rule: "at least 30% of the eligible voters" });
    expect((await request(ctx.app).get(`/api/companies/${company.id}/quorum`).set("Authorization", voters[1]!.bearer)).body).toEqual(
      saved.body,
    );
    const id = await created(founder);
    await allVote(voters, id, ["yes", "yes"]);
    ctx.clock.advance(8 * day);
    expect((await details(founder, id)).status).toBe("approved");
  });

  it("is decided by the sweep without anyone reading it, and the sweep stops", async () => {
    // Three voters, two vote: quorum (two) is met at the deadline.
    const { founder, voters } = await boardWith(2);
    const id = await created(founder);
    await allVote(voters, id, ["yes", "yes"]);
    ctx.clock.advance(8 * day);
    expect(await decideDue(ctx.deps)).toBeGreaterThanOrEqual(1);
    expect(await decideDue(ctx.deps)).toBe(0);
    expect((await details(founder, id)).status).toBe("approved");

    vi.useFakeTimers();
    try {
      const other = await created(founder, { deadline: new Date(ctx.clock.now().getTime() + day).toISOString() });
      await allVote(voters, other, ["yes", "yes"]);
      ctx.clock.advance(2 * day);
      const sweep = startResolutionSweep(ctx.deps, 1000);
      await vi.advanceTimersByTimeAsync(1000);
      sweep.stop();
      vi.useRealTimers();
      await vi.waitFor(async () => expect((await details(founder, other)).status).toBe("approved"));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the certificate", () => {
  it("is frozen at the decision: a later role change or departure never alters it", async () => {
    const { founder, company, voters } = await boardWith(2);
    const id = await created(founder, { type: "Special" });
    await vote(voters[0]!, id, "yes", "Agreed");
    await vote(voters[1]!, id, "yes");
    await vote(voters[2]!, id, "no", "Too costly");
    const before = (await details(founder, id)).certificate as Certificate;
    expect(before).toMatchObject({
      outcome: "rejected",
      yes: 2,
      no: 1,
      abstain: 0,
      votes: expect.arrayContaining([expect.objectContaining({ userId: voters[2]!.id, vote: "no", comment: "Too costly" })]),
    });
    await ctx.db
      .update(memberships)
      .set({ role: "observer" })
      .where(and(eq(memberships.companyId, company.id), eq(memberships.userId, voters[1]!.id)));
    await ctx.db.delete(memberships).where(and(eq(memberships.companyId, company.id), eq(memberships.userId, voters[2]!.id)));
    const after = await details(founder, id);
    expect(after.certificate).toEqual(before);
    expect(after.voteCounts).toEqual({ yes: 2, no: 1, abstain: 0 });
  });
});

describe("another company's resolution", () => {
  it("answers 404 on every by-id route", async () => {
    const { founder } = await boardWith(0);
    const id = await created(founder);
    const outsider = (await ctx.board("Outsiders")).founder;
    const calls = [
      request(ctx.app).get(`/api/resolutions/${id}`),
      request(ctx.app).get(`/api/resolutions/${id}/votes`),
      request(ctx.app).post(`/api/resolutions/${id}/vote`).send({ vote: "yes" }),
      request(ctx.app).post(`/api/resolutions/${id}/conflict`).send({ reason: "x" }),
      request(ctx.app).delete(`/api/resolutions/${id}/conflict`),
    ];
    for (const call of calls) expect((await call.set("Authorization", outsider.bearer)).status).toBe(404);
  });
});
