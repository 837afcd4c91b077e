import { complianceRuleIds, type ComplianceGroup } from "../../../../shared/compliance";
import { complianceFixtures } from "../../testing/compliance-fixtures";
import { samplePdf } from "../../testing/sample-files";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();

const day = 24 * 60 * 60 * 1000;
const { api, board, schedule } = complianceFixtures(ctx);

async function compliance(user: SignedUp, companyId: number): Promise<ComplianceGroup[]> {
  const response = await api().get(`/api/companies/${companyId}/compliance`).set("Authorization", user.bearer);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as ComplianceGroup[];
}

/** Signs in again (after the test clock has moved past the session's idle limit). */
async function signIn(user: SignedUp): Promise<SignedUp> {
  const response = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
  expect(response.status).toBe(200);
  return { ...user, bearer: `Bearer ${response.body.token as string}` };
}

const progress = (groups: ComplianceGroup[]) => Object.fromEntries(groups.map((group) => [group.name, group.progress]));
const statusOf = (groups: ComplianceGroup[], id: string) => groups.flatMap((group) => group.items).find((item) => item.id === id)?.status;

async function upload(user: SignedUp, name: string, category: string): Promise<void> {
  const response = await api()
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({ name, fileType: "application/pdf", content: `data:application/pdf;base64,${samplePdf().toString("base64")}`, category });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
}

describe("GET /api/companies/:companyId/compliance", () => {
  it("answers 401 without a session and 403 to another company's member", async () => {
    const { company } = await board("Guarded Ltd");
    const { founder: outsider } = await board("Elsewhere Ltd");
    expect((await api().get(`/api/companies/${company.id}/compliance`)).status).toBe(401);
    const refused = await api().get(`/api/companies/${company.id}/compliance`).set("Authorization", outsider.bearer);
    expect(refused.status).toBe(403);
    expect(Object.keys(refused.body)).toEqual(["message"]);
  });

  it("scores a new company low, and the right meetings, documents and votes raise each group to 100", async () => {
    ctx.clock.set("2027-01-05T09:00:00.000Z");
    const { founder, company, member } = await board("Diligent Holdings");
    const director = await member("member");

    const fresh = await compliance(director, company.id);
    expect(fresh.map((group) => group.name)).toEqual(["Meetings", "Documents", "Resolutions"]);
    expect(progress(fresh)).toEqual({ Meetings: 0, Documents: 0, Resolutions: 50 });
    for (const group of fresh) for (const item of group.items) expect(Object.values(complianceRuleIds)).toContain(item.id);
    expect(fresh[0]!.items.find((item) => item.id === complianceRuleIds.annualGeneralMeeting)?.dueDate).toBe("2028-07-05T09:00:00.000Z");

    // A board meeting and the AGM, each scheduled ten days ahead: upcoming.
    await schedule(founder, new Date("2027-01-15T10:00:00.000Z"), "Q1 Board Meeting");
    await schedule(founder, new Date("2027-01-15T14:00:00.000Z"), "Annual General Meeting 2027");
    const booked = await compliance(founder, company.id);
    expect(statusOf(booked, complianceRuleIds.quarterlyBoardMeeting)).toBe("upcoming");
    expect(statusOf(booked, complianceRuleIds.annualGeneralMeeting)).toBe("upcoming");

    // The Legal and Financial documents now; the minutes once the meetings are over.
    await upload(founder, "Articles of Association.pdf", "Legal");
    await upload(founder, "FY2026 Accounts.pdf", "Financial");

    // A resolution everyone votes on is decided with quorum at the last vote.
    const resolution = await api()
      .post("/api/resolutions")
      .set("Authorization", founder.bearer)
      .send({
        title: "Adopt the accounts",
        description: "FY2026",
        type: "Ordinary",
        deadline: new Date(ctx.clock.now().getTime() + 7 * day).toISOString(),
      });
    expect(resolution.status).toBe(201);
    for (const voter of [founder, director]) {
      expect(
        (await api().post(`/api/resolutions/${resolution.body.id}/vote`).set("Authorization", voter.bearer).send({ vote: "yes" })).status,
      ).toBe(200);
    }

    ctx.clock.set("2027-01-16T09:00:00.000Z");
    const held = await compliance(founder, company.id);
    expect(progress(held), JSON.stringify(held[1])).toEqual({ Meetings: 100, Documents: 67, Resolutions: 100 });
    expect(statusOf(held, complianceRuleIds.meetingMinutes)).toBe("pending");

    await upload(founder, "Board minutes 2027-01-15.pdf", "General");
    await upload(founder, "AGM Minutes.pdf", "General");
    const done = await compliance(director, company.id);
    expect(progress(done)).toEqual({ Meetings: 100, Documents: 100, Resolutions: 100 });
    for (const group of done) for (const item of group.items) expect(item.status).toBe("completed");
  });

  it("marks what slips: short notice, an expired resolution, missing minutes", async () => {
    ctx.clock.set("2027-02-01T09:00:00.000Z");
    const { founder, company } = await board("Hasty Ltd");
    await schedule(founder, new Date("2027-02-03T10:00:00.000Z"), "Emergency board meeting");
    const resolution = await api()
      .post("/api/resolutions")
      .set("Authorization", founder.bearer)
      .send({ title: "Urgent", description: "Now", type: "Ordinary", deadline: "2027-02-02T09:00:00.000Z" });
    expect(resolution.status).toBe(201);
    ctx.clock.set("2027-03-10T09:00:00.000Z");
    const groups = await compliance(await signIn(founder), company.id);
    expect(statusOf(groups, complianceRuleIds.meetingNotice)).toBe("overdue");
    expect(statusOf(groups, complianceRuleIds.meetingMinutes)).toBe("overdue");
    // Nothing has decided the resolution yet (no list was read, no sweep ran): the record shows it expired.
    expect(statusOf(groups, complianceRuleIds.noExpiredResolutions)).toBe("overdue");
  });

  it("costs the same few queries whatever the company's size", async () => {
    ctx.clock.set("2027-04-02T09:00:00.000Z");
    const { founder, company } = await board("Busy Ltd");
    const cost = () => ctx.countQueries(() => compliance(founder, company.id));
    const empty = await cost();
    for (let index = 0; index < 5; index += 1) {
      await schedule(founder, new Date(ctx.clock.now().getTime() + (10 + index) * day), `Meeting ${index}`);
      await upload(founder, `Minutes ${index}.pdf`, "Financial");
      await api()
        .post("/api/resolutions")
        .set("Authorization", founder.bearer)
        .send({
          title: `Resolution ${index}`,
          description: "Vote",
          type: "Ordinary",
          deadline: new Date(ctx.clock.now().getTime() + day).toISOString(),
        });
    }
    ctx.clock.advance(60 * day);
    const again = await signIn(founder);
    const busy = await ctx.countQueries(() => compliance(again, company.id));
    expect(busy).toBe(empty);
    // The session (the active company's membership comes with it) and the one record read.
    expect(busy).toBe(2);
  });
});
