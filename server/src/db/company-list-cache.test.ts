import request from "supertest";
import { complianceRuleIds, type ComplianceGroup } from "../../../shared/compliance";
import { resolutionFixtures } from "../testing/resolution-fixtures";
import { meetingContent, scheduleMeeting, uploadPdf } from "../testing/factories";
import { useSecondInstance, useTestContext } from "../testing/test-context";

/**
 * A company's resolutions and library are kept by each instance until what they show changes. The changes here are
 * made on a second instance, so only their notifications can tell the first: a repeated list makes no query, and
 * still never shows what a change has made wrong.
 */
const ctx = useTestContext();
const fixtures = resolutionFixtures(ctx);
const second = useSecondInstance(ctx);
// On Postgres a change reaches the other instance a few milliseconds after its commit (the notification's trip); a
// kept answer nobody told would stay for 30 s, past this wait.
// The test's clock stands still, so a kept list never ages out here: what shows, a notification brought. The wait is
// for that notification and for the paper's text read in the background (slow on a loaded machine).
const soon = (assertion: () => Promise<unknown>) => vi.waitFor(assertion, { timeout: 8_000, interval: 20 });

const list = (viewer: { bearer: string }, path: string) => request(ctx.app).get(path).set("Authorization", viewer.bearer);
/** The list is kept: once the notifications of the test's own setup have arrived, a repeated list makes no query. */
/** The list is read from what is kept: no query, or only the caller's own (the upcoming meetings' papers they have read). */
const kept = (viewer: { bearer: string }, path: string, callersOwn = 0) =>
  soon(async () => expect(await ctx.countQueries(() => list(viewer, path))).toBe(callersOwn));

describe("the kept company lists", () => {
  it("resolutions: a repeated list makes no query; a vote, a new resolution and a decision on another instance show at once", async () => {
    const { founder, company, voters } = await fixtures.boardWith(1);
    const path = `/api/companies/${company.id}/resolutions`;
    const id = await fixtures.created(founder);
    expect((await list(founder, path)).body).toHaveLength(1);
    await kept(founder, path);

    const vote = (voter: { bearer: string }, choice: string) =>
      request(second.app).post(`/api/resolutions/${id}/vote`).set("Authorization", voter.bearer).send({ vote: choice });
    expect((await vote(voters[1]!, "yes")).status).toBe(200);
    await soon(async () => expect(((await list(founder, path)).body as { voteCounts: { yes: number } }[])[0]!.voteCounts.yes).toBe(1));

    const created = await request(second.app)
      .post("/api/resolutions")
      .set("Authorization", founder.bearer)
      .send({ title: "Second", description: "Another", type: "Ordinary", deadline: fixtures.inAWeek().toISOString(), documentIds: [] });
    expect(created.status).toBe(201);
    await soon(async () => expect((await list(founder, path)).body).toHaveLength(2));

    expect((await vote(founder, "yes")).status).toBe(200);
    const statuses = async () => ((await list(founder, path)).body as { id: number; status: string }[]).map((row) => [row.id, row.status]);
    await soon(async () => expect(await statuses()).toContainEqual([id, "approved"]));
  });

  it("library: a paper added, a paper removed and an uploader renamed on another instance show at once", async () => {
    const { founder, company } = await fixtures.boardWith(1);
    const path = `/api/companies/${company.id}/documents`;
    const names = async () =>
      ((await list(founder, path)).body as { name: string; uploader: string }[]).map((row) => [row.name, row.uploader]);
    const first = await uploadPdf(second.app, founder, "Budget.pdf");
    expect(await names()).toHaveLength(1);
    await kept(founder, path);

    await uploadPdf(second.app, founder, "Forecast.pdf");
    await soon(async () => expect((await names()).map(([name]) => name)).toEqual(["Forecast.pdf", "Budget.pdf"]));

    expect((await request(second.app).delete(`/api/documents/${first}`).set("Authorization", founder.bearer)).status).toBe(204);
    await soon(async () => expect((await names()).map(([name]) => name)).toEqual(["Forecast.pdf"]));

    const renamed = await request(second.app)
      .patch(`/api/users/${founder.id}`)
      .set("Authorization", founder.bearer)
      .send({ firstName: "Renamed", lastName: "Founder" });
    expect(renamed.status).toBe(200);
    await soon(async () => expect(await names()).toEqual([["Forecast.pdf", "Renamed Founder"]]));
  });

  it("compliance: a repeated read makes no query; a paper, a meeting and a resolution on another instance show at once; a deadline passing shows from the kept record", async () => {
    const { founder, company } = await fixtures.boardWith(1);
    const path = `/api/companies/${company.id}/compliance`;
    const statusOf = async (rule: string) =>
      ((await list(founder, path)).body as ComplianceGroup[]).flatMap((group) => group.items).find((item) => item.id === rule)?.status;
    expect(await statusOf(complianceRuleIds.legalDocuments)).not.toBe("completed");
    await kept(founder, path);

    await uploadPdf(second.app, founder, "Articles.pdf", "Legal");
    await soon(async () => expect(await statusOf(complianceRuleIds.legalDocuments)).toBe("completed"));

    const meeting = await request(second.app)
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({
        category: "Meeting",
        content: JSON.stringify(meetingContent(new Date(ctx.clock.now().getTime() + 20 * 24 * 60 * 60 * 1000), { status: "confirmed" })),
      });
    expect(meeting.status).toBe(201);
    await soon(async () => expect(await statusOf(complianceRuleIds.quarterlyBoardMeeting)).toBe("upcoming"));

    // A resolution due in 10 s: not yet expired. Once the clock passes its deadline the kept record shows it expired,
    // without a query: the record holds what the next two days may bring into its periods.
    const deadline = new Date(ctx.clock.now().getTime() + 10_000);
    await kept(founder, path);
    const resolution = await request(second.app)
      .post("/api/resolutions")
      .set("Authorization", founder.bearer)
      .send({ title: "Due soon", description: "Now", type: "Ordinary", deadline: deadline.toISOString(), documentIds: [] });
    expect(resolution.status).toBe(201);
    // Its notifications drop every kept list of the company; once they have all been heard, the record read next is kept.
    await soon(async () => expect((await list(founder, `/api/companies/${company.id}/resolutions`)).body).toHaveLength(1));
    await ctx.notificationsHeard();
    expect(await statusOf(complianceRuleIds.noExpiredResolutions)).toBe("completed");
    ctx.clock.set(new Date(deadline.getTime() + 5_000));
    let expired: string | undefined;
    expect(await ctx.countQueries(async () => (expired = await statusOf(complianceRuleIds.noExpiredResolutions)))).toBe(0);
    expect(expired).toBe("overdue");
  });

  it("upcoming meetings: a repeated read makes only the query of the caller's reads; a meeting scheduled or cancelled on another instance shows at once; one that starts gives its place to the eleventh from the kept list", async () => {
    const { founder, company } = await fixtures.boardWith(1);
    const path = `/api/companies/${company.id}/meetings/upcoming`;
    const base = ctx.clock.now().getTime();
    const titles = async () => ((await list(founder, path)).body as { title: string }[]).map((meeting) => meeting.title);
    // One starts in 10 s, ten more on the days after: the list shows ten of the eleven.
    await scheduleMeeting(second.app, founder, new Date(base + 10_000), { title: "Starting" });
    for (let day = 1; day <= 10; day += 1)
      await scheduleMeeting(second.app, founder, new Date(base + day * 86_400_000), { title: `Day ${day}` });
    const firstTen = ["Starting", ...Array.from({ length: 9 }, (_, i) => `Day ${i + 1}`)];
    await soon(async () => expect(await titles()).toEqual(firstTen));
    await kept(founder, path, 1);

    // Started: gone, and the eleventh shows, from the kept list.
    ctx.clock.set(new Date(base + 10_000));
    let shown: string[] = [];
    expect(await ctx.countQueries(async () => (shown = await titles()))).toBe(1);
    expect(shown).toEqual(Array.from({ length: 10 }, (_, i) => `Day ${i + 1}`));

    const sooner = await scheduleMeeting(second.app, founder, new Date(base + 3_600_000), { title: "Sooner" });
    await soon(async () => expect((await titles())[0]).toBe("Sooner"));
    await kept(founder, path, 1);
    const cancelled = await request(second.app)
      .patch(`/api/meetings/${sooner}`)
      .set("Authorization", founder.bearer)
      .send({ status: "cancelled" });
    expect(cancelled.status).toBe(200);
    await soon(async () => expect((await titles())[0]).toBe("Day 1"));
  });

  it("keeps its lists through a stranger's refused write and another user's sign-out", async () => {
    const { founder, company } = await fixtures.boardWith(1);
    const path = `/api/companies/${company.id}/resolutions`;
    await fixtures.created(founder);
    await list(founder, path);
    await kept(founder, path);

    expect((await request(ctx.app).post("/api/resolutions").send({ title: "No session" })).status).toBe(401);
    // Registered only: confirming the address in the test's own statement would be a user's change, which drops the lists.
    const other = await ctx.signUp({ confirmAddress: false });
    expect((await request(second.app).post("/api/auth/logout").set("Authorization", other.bearer)).status).toBe(204);
    expect(await ctx.countQueries(() => list(founder, path))).toBe(0);
  });
});
