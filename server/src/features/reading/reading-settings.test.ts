import { and, eq } from "drizzle-orm";
import request from "supertest";
import { auditEvents } from "../../db/schema";
import { companyProfile } from "../../testing/company-fixtures";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const { as, board } = readingFixtures(ctx);

const put = (user: SignedUp, companyId: number, fields: Record<string, unknown>) =>
  request(ctx.app).put(`/api/companies/${companyId}`).set("Authorization", user.bearer).send(companyProfile(fields));

describe("the company's reading settings", () => {
  it("read receipts on and notes kept by default; founders and admins change them, audited like the other settings", async () => {
    const { founder, admin, company } = await board("Settings Reading Ltd");
    const settings = async () => (await as(founder).get(`/api/companies/${company.id}/settings`)).body.company;
    expect(await settings()).toMatchObject({ readReceipts: true, notesRetentionDays: null });

    const changed = await put(founder, company.id, { readReceipts: false, notesRetentionDays: 90 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ readReceipts: false, notesRetentionDays: 90 });
    // Absent fields are left as they are; null keeps notes again.
    expect((await put(admin, company.id, {})).body).toMatchObject({ readReceipts: false, notesRetentionDays: 90 });
    expect((await put(admin, company.id, { notesRetentionDays: null })).body).toMatchObject({ notesRetentionDays: null });
    expect(await settings()).toMatchObject({ readReceipts: false, notesRetentionDays: null });

    const audited = await ctx.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "company.update")));
    expect(
      audited.map((event) => [
        event.actorId,
        (event.details as { fields: string[] }).fields.filter((field) => field.startsWith("notes") || field === "readReceipts"),
      ]),
    ).toEqual([
      [founder.id, ["readReceipts", "notesRetentionDays"]],
      [admin.id, []],
      [admin.id, ["notesRetentionDays"]],
    ]);
  });

  it("refuses a member (403) and a retention outside 1 to 3650 days (400)", async () => {
    const { founder, ann, company } = await board("Settings Refusals Ltd");
    expect((await put(ann, company.id, { readReceipts: false })).status).toBe(403);
    for (const days of [0, 3651, 1.5, "30"]) {
      const refused = await put(founder, company.id, { notesRetentionDays: days });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].path).toBe("notesRetentionDays");
    }
    expect((await put(founder, company.id, { readReceipts: "no" })).status).toBe(400);
  });
});
