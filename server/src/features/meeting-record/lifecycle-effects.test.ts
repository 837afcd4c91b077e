import { count, eq } from "drizzle-orm";
import { complianceRuleIds, type ComplianceGroup } from "../../../../shared/compliance";
import type { ListedMeeting } from "../../../../shared/meetings";
import { meetings } from "../../db/schema";
import type { SignedUp } from "../../testing/test-context";
import { useLifecycleContext } from "../../testing/lifecycle-fixtures";

const { ctx, api, schedule, update, board, inDays } = useLifecycleContext();

describe("scheduling a meeting already confirmed or cancelled (POST /api/documents)", () => {
  it("is for founders and admins: a member may schedule a pending meeting only (403)", async () => {
    const { founder, member } = await board();
    const admin = await member("admin");
    const ann = await member("member");
    for (const status of ["confirmed", "cancelled"]) {
      await expect(schedule(ann, inDays(3), { status })).rejects.toThrow(
        `scheduling failed: 403 {"message":"Only founders and admins can confirm, reschedule or cancel a meeting"}`,
      );
      expect(await schedule(founder, inDays(3), { status })).toEqual(expect.any(Number));
      expect(await schedule(admin, inDays(3), { status })).toEqual(expect.any(Number));
    }
    expect(await schedule(ann, inDays(3), { status: "pending" })).toEqual(expect.any(Number));
    const [scheduled] = await ctx.db.select({ n: count() }).from(meetings).where(eq(meetings.createdBy, ann.id));
    expect(scheduled?.n).toBe(1);
  });
});

describe("a cancelled meeting leaves the upcoming list and the compliance count", () => {
  async function upcoming(user: SignedUp, companyId: number): Promise<ListedMeeting[]> {
    const response = await api().get(`/api/companies/${companyId}/meetings/upcoming`).set("Authorization", user.bearer);
    expect(response.status).toBe(200);
    return response.body as ListedMeeting[];
  }
  async function quarterly(user: SignedUp, companyId: number) {
    const response = await api().get(`/api/companies/${companyId}/compliance`).set("Authorization", user.bearer);
    expect(response.status).toBe(200);
    return (response.body as ComplianceGroup[])
      .flatMap((group) => group.items)
      .find((item) => item.id === complianceRuleIds.quarterlyBoardMeeting);
  }

  it("drops from both once cancelled, and a confirmed one stays in both", async () => {
    const { founder, company } = await board("Counting Ltd");
    const kept = await schedule(founder, inDays(3), { title: "Kept" });
    const dropped = await schedule(founder, inDays(4), { title: "Dropped" });
    expect((await upcoming(founder, company.id)).map((meeting) => meeting.id)).toEqual([kept, dropped]);

    expect((await update(founder, kept, { status: "cancelled" })).status).toBe(200);
    expect((await update(founder, dropped, { status: "confirmed" })).status).toBe(200);
    expect(await upcoming(founder, company.id)).toEqual([expect.objectContaining({ id: dropped, status: "confirmed" })]);
    expect(await quarterly(founder, company.id)).toMatchObject({ status: "upcoming", description: expect.stringContaining("Dropped") });

    expect((await update(founder, dropped, { status: "cancelled" })).status).toBe(200);
    expect(await upcoming(founder, company.id)).toEqual([]);
    expect((await quarterly(founder, company.id))?.status).toBe("pending");
  });
});
