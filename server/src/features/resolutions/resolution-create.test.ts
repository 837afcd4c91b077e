import { and, eq } from "drizzle-orm";
import { auditEvents, documents, notifications } from "../../db/schema";
import { createCompany } from "../../testing/factories";
import { useTestContext } from "../../testing/test-context";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { versionFixtures } from "../../testing/version-fixtures";

const ctx = useTestContext();
beforeEach(() => ctx.clock.set("2026-06-01T09:00:00.000Z"));

const { boardWith, create, created, details } = resolutionFixtures(ctx);
const { upload, replace } = versionFixtures(ctx);

describe("POST /api/resolutions", () => {
  it("creates a pending resolution in the active company whatever status is sent, and notifies the other voters", async () => {
    const { founder, voters, others } = await boardWith(2, ["observer"]);
    const response = await create(founder, { status: "approved", type: "Special" });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: "pending",
      type: "Special",
      voteCounts: { yes: 0, no: 0, abstain: 0 },
      documentIds: [],
      decidedAt: null,
    });
    const told = await ctx.db
      .select({ userId: notifications.userId, kind: notifications.kind, link: notifications.link })
      .from(notifications)
      .where(eq(notifications.link, `/resolutions/${response.body.id}`));
    expect(told.map((row) => row.userId).sort()).toEqual([voters[1]!.id, voters[2]!.id].sort());
    expect(told.every((row) => row.kind === "resolutionCreated")).toBe(true);
    expect(told.some((row) => row.userId === others[0]!.id)).toBe(false);
    const audit = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "resolution.created"), eq(auditEvents.targetId, String(response.body.id))));
    expect(audit).toHaveLength(1);
  });

  it("refuses a deadline that is not in the future, with nothing written", async () => {
    const { founder } = await boardWith(0);
    const response = await create(founder, { deadline: ctx.clock.now().toISOString() });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "deadline", message: "The deadline must be in the future" }]);
  });

  it("attaches documents of the company only, never another company's or a meeting", async () => {
    const { founder, company } = await boardWith(0);
    const other = await createCompany(ctx.db, { name: "Elsewhere" });
    const [own, foreign] = await ctx.db
      .insert(documents)
      .values([
        { companyId: company.id, name: "Budget.pdf", fileType: "application/pdf", category: "Financial", uploadedBy: founder.id },
        { companyId: other.id, name: "Theirs.pdf", fileType: "application/pdf", category: "Financial" },
      ])
      .returning({ id: documents.id });
    const [meeting] = await ctx.db
      .insert(documents)
      .values({ companyId: company.id, name: "Meeting: Q3", fileType: "application/json", category: "Meeting" })
      .returning({ id: documents.id });
    expect((await create(founder, { documentIds: [own!.id, foreign!.id] })).status).toBe(400);
    expect((await create(founder, { documentIds: [meeting!.id] })).status).toBe(400);
    const ok = await create(founder, { documentIds: [own!.id, String(own!.id)] });
    expect(ok.status).toBe(201);
    expect(ok.body.documentIds).toEqual([own!.id]);
    const shown = await details(founder, ok.body.id);
    expect(shown.documents).toEqual([
      { id: own!.id, name: "Budget.pdf", fileType: "application/pdf", hasFile: false, version: 1, replacedAt: null },
    ]);
  });

  it("shows each paper it carries at its latest version: a replaced one with its number and when, in one query", async () => {
    const { founder } = await boardWith(0);
    const budget = await upload(founder, "Budget.txt", Buffer.from("first draft\n"));
    const terms = await upload(founder, "Terms.txt", Buffer.from("terms\n"));
    const id = await created(founder, { documentIds: [budget.id, terms.id] });
    ctx.clock.advance(60 * 60 * 1000);
    const replaced = await replace(founder, budget.id, "Revised after the audit", "Budget.txt", Buffer.from("second draft\n"));
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(201);
    expect(replaced.body.replacedAt).toBe(ctx.clock.now().toISOString());

    const shown = await details(founder, id);
    expect(shown.documents).toEqual([
      { id: budget.id, name: "Budget.txt", fileType: "text/plain", hasFile: true, version: 2, replacedAt: ctx.clock.now().toISOString() },
      { id: terms.id, name: "Terms.txt", fileType: "text/plain", hasFile: true, version: 1, replacedAt: null },
    ]);
    // The papers' versions come with the papers: a resolution carrying more of them, replaced more often, costs no more.
    const two = await ctx.countQueries(() => details(founder, id));
    const more = await Promise.all(["A.txt", "B.txt", "C.txt"].map((name) => upload(founder, name, Buffer.from(`${name}\n`))));
    for (const paper of more) expect((await replace(founder, paper.id, "Again", paper.name, Buffer.from("again\n"))).status).toBe(201);
    const five = await created(founder, { documentIds: [budget.id, terms.id, ...more.map((paper) => paper.id)] });
    await details(founder, five);
    expect(await ctx.countQueries(() => details(founder, five))).toBe(two);
  });

  it("refuses observers (403) and validates the body (400)", async () => {
    const { founder, others } = await boardWith(0, ["observer"]);
    const refused = await create(others[0]!);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "Observers cannot create resolutions" });
    expect((await create(founder, { type: "Extraordinary" })).status).toBe(400);
    expect((await create(founder, { title: "" })).status).toBe(400);
  });
});
