import { and, eq } from "drizzle-orm";
import request from "supertest";
import { memberships } from "../../db/schema";
import { useTestContext } from "../../testing/test-context";
import { day, resolutionFixtures } from "../../testing/resolution-fixtures";

const ctx = useTestContext();
beforeEach(() => ctx.clock.set("2026-06-01T09:00:00.000Z"));

const { boardWith, created, vote, allVote } = resolutionFixtures(ctx);

describe("lists", () => {
  it("answer vote counts and the pending summary, pending meaning not past the deadline", async () => {
    const { founder, company, voters } = await boardWith(3);
    const first = await created(founder, { title: "First" });
    const soon = await created(founder, { title: "Soon", deadline: new Date(ctx.clock.now().getTime() + day).toISOString() });
    await allVote(voters, first, ["yes", "no"]);
    await vote(voters[2]!, first, "abstain");
    const list = await request(ctx.app).get(`/api/companies/${company.id}/resolutions`).set("Authorization", founder.bearer);
    expect(list.status).toBe(200);
    expect(list.body.map((row: { title: string }) => row.title)).toEqual(["Soon", "First"]);
    expect(list.body[1].voteCounts).toEqual({ yes: 1, no: 1, abstain: 1 });
    const pending = await request(ctx.app).get(`/api/companies/${company.id}/resolutions/pending`).set("Authorization", founder.bearer);
    expect(pending.body).toEqual([
      {
        id: soon,
        title: "Soon",
        createdAt: expect.any(String),
        deadline: expect.any(String),
        procedure: "vote",
        awaitingYourSignature: false,
      },
      {
        id: first,
        title: "First",
        createdAt: expect.any(String),
        deadline: expect.any(String),
        procedure: "vote",
        awaitingYourSignature: false,
      },
    ]);
    ctx.clock.advance(2 * day);
    const later = await request(ctx.app).get(`/api/companies/${company.id}/resolutions/pending`).set("Authorization", founder.bearer);
    // "Soon" expired with no vote cast: it stays pending, but is no longer in the pending summary.
    expect(later.body.map((row: { id: number }) => row.id)).toEqual([first]);
  });

  it("count, in the list as in the poll, only the votes of those who vote in the company now", async () => {
    const { founder, company, voters } = await boardWith(3);
    const id = await created(founder);
    const other = await created(founder, { title: "Other" });
    // Three of the four vote, so it stays pending.
    await allVote(voters, id, ["yes", "no", "abstain"]);
    await vote(voters[1]!, other, "no");
    const counts = async () => {
      const list = await request(ctx.app).get(`/api/companies/${company.id}/resolutions`).set("Authorization", founder.bearer);
      const poll = await request(ctx.app).get(`/api/resolutions/${id}/votes`).set("Authorization", founder.bearer);
      const listed = list.body.find((row: { id: number }) => row.id === id).voteCounts;
      expect(listed).toEqual({ yes: poll.body.yes, no: poll.body.no, abstain: poll.body.abstain });
      return { listed, other: list.body.find((row: { id: number }) => row.id === other).voteCounts };
    };
    expect(await counts()).toEqual({ listed: { yes: 1, no: 1, abstain: 1 }, other: { yes: 0, no: 1, abstain: 0 } });
    // An observer's vote and a departed member's vote stop counting while the resolution is pending.
    await ctx.db
      .update(memberships)
      .set({ role: "observer" })
      .where(and(eq(memberships.companyId, company.id), eq(memberships.userId, voters[1]!.id)));
    await ctx.db.delete(memberships).where(and(eq(memberships.companyId, company.id), eq(memberships.userId, voters[2]!.id)));
    await ctx.notificationsHeard();
    expect(await counts()).toEqual({ listed: { yes: 1, no: 0, abstain: 0 }, other: { yes: 0, no: 0, abstain: 0 } });
  });

  it("send the same number of queries for 1 and 30 resolutions", async () => {
    const { founder, company, voters } = await boardWith(2);
    const queries = async (path: string) =>
      ctx.countQueries(async () => expect((await request(ctx.app).get(path).set("Authorization", founder.bearer)).status).toBe(200));
    const ids = [await created(founder)];
    await vote(voters[1]!, ids[0]!, "yes");
    const oneList = await queries(`/api/companies/${company.id}/resolutions`);
    const onePending = await queries(`/api/companies/${company.id}/resolutions/pending`);
    for (let index = 1; index < 30; index += 1) {
      const id = await created(founder, { title: `Resolution ${index}` });
      await vote(voters[1]!, id, index % 2 ? "yes" : "no");
    }
    expect(await queries(`/api/companies/${company.id}/resolutions`)).toBe(oneList);
    expect(await queries(`/api/companies/${company.id}/resolutions/pending`)).toBe(onePending);
  });
});
