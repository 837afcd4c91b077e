import request from "supertest";
import { addMember } from "../../testing/factories";
import { companyCreator, companyProfile as profile } from "../../testing/company-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
const api = () => request(ctx.app);
const createVia = companyCreator(ctx);

describe("a company's reading settings", () => {
  it("start with read receipts on and notes kept; founders and admins change them, an absent one is left as it is", async () => {
    const founder = await ctx.signUp();
    const director = await ctx.signUp();
    const company = await createVia(founder, { name: "Reading Co" });
    await addMember(ctx.db, company.id, director.id, "member");
    const settingsOf = async (bearer: string) =>
      (await api().get(`/api/companies/${company.id}/settings`).set("Authorization", bearer)).body.company;
    expect(await settingsOf(director.bearer)).toMatchObject({ readReceipts: true, notesRetentionDays: null });

    const put = (body: Record<string, unknown>) =>
      api().put(`/api/companies/${company.id}`).set("Authorization", founder.bearer).send(profile(body));
    const changed = await put({ readReceipts: false, notesRetentionDays: 90 });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ readReceipts: false, notesRetentionDays: 90 });
    // Another form's save leaves them as they are; null keeps notes again.
    expect((await put({ name: "Renamed" })).body).toMatchObject({ readReceipts: false, notesRetentionDays: 90 });
    expect((await put({ notesRetentionDays: null })).body).toMatchObject({ readReceipts: false, notesRetentionDays: null });
    // Directors see whether receipts are on.
    expect(await settingsOf(director.bearer)).toMatchObject({ readReceipts: false, notesRetentionDays: null });
  });

  it("refuses a retention outside 1 to 3650 days, or receipts that are not on or off (400 with the field)", async () => {
    const founder = await ctx.signUp();
    const company = await createVia(founder, { name: "Strict Co" });
    for (const body of [{ notesRetentionDays: 0 }, { notesRetentionDays: 3651 }, { notesRetentionDays: 1.5 }, { readReceipts: "yes" }]) {
      const response = await api().put(`/api/companies/${company.id}`).set("Authorization", founder.bearer).send(profile(body));
      expect(response.status).toBe(400);
      expect(response.body.errors.map((error: { path: string }) => error.path)).toEqual([Object.keys(body)[0]]);
    }
  });
});
