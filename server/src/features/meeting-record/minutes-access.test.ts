import { noMinutes } from "../../../../shared/meeting-record";
import { deniedMessage } from "../../../../shared/permissions";
import { minutesFixtures, minutesTestStart } from "../../testing/minutes-fixtures";
import { useTestContext } from "../../testing/test-context";

const ctx = useTestContext();
afterEach(() => ctx.clock.set(minutesTestStart));
const fixtures = minutesFixtures(ctx);
const { getMinutes, draft, edit, circulate, approve, knownRecord } = fixtures;

describe("who sees and keeps the minutes", () => {
  it("before a first draft every member reads status none with nulls", async () => {
    const { obi, meetingId } = await knownRecord("None Yet Ltd");
    const response = await getMinutes(obi, meetingId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(noMinutes);
    expect(Object.entries(noMinutes).filter(([, value]) => value !== null)).toEqual([["status", "none"]]);
  });

  it("a draft's text is for founders, admins and the meeting's creator; others read its status only", async () => {
    const { fay, ann, bob, cal, obi, meetingId } = await knownRecord("Drafts Are Private Ltd");
    expect((await draft(fay, meetingId)).status).toBe(200);
    for (const keeper of [fay, ann, cal])
      expect((await getMinutes(keeper, meetingId)).body.text).toContain("# Minutes of Q3 Board Meeting");
    for (const other of [bob, obi]) {
      const response = await getMinutes(other, meetingId);
      expect(response.body).toMatchObject({ status: "draft", text: null });
    }
    // Once circulated, everyone reads them.
    expect((await circulate(fay, meetingId)).status).toBe(200);
    expect((await getMinutes(obi, meetingId)).body.text).toContain("# Minutes of Q3 Board Meeting");
  });

  it("members and observers who did not create the meeting are refused every write (403); its creator, a member, is not", async () => {
    const { bob, obi, cal, meetingId } = await knownRecord("Keepers Only Ltd");
    const refusal = { message: deniedMessage("keepAnyMeetingRecord") };
    for (const user of [bob, obi]) {
      expect((await draft(user, meetingId)).body).toEqual(refusal);
      expect((await draft(user, meetingId)).status).toBe(403);
    }
    expect((await draft(cal, meetingId)).status).toBe(200);
    for (const user of [bob, obi]) {
      expect((await edit(user, meetingId, "Changed")).status).toBe(403);
      expect((await circulate(user, meetingId)).status).toBe(403);
    }
    expect((await circulate(cal, meetingId)).status).toBe(200);
    expect((await approve(obi, meetingId, "resolution")).status).toBe(403);
    expect((await getMinutes(cal, meetingId)).body.status).toBe("circulated");
  });

  it("another company's minutes are not found, read or written", async () => {
    const { fay, meetingId } = await knownRecord("Private Minutes Ltd");
    expect((await draft(fay, meetingId)).status).toBe(200);
    const { founder: outsider } = await ctx.board("Elsewhere Ltd");
    for (const response of [
      await getMinutes(outsider, meetingId),
      await draft(outsider, meetingId),
      await edit(outsider, meetingId, "Hijacked"),
      await circulate(outsider, meetingId),
      await approve(outsider, meetingId, "chair"),
    ]) {
      expect(response.status).toBe(404);
    }
    expect((await getMinutes(fay, meetingId)).body.text).toContain("# Minutes of Q3 Board Meeting");
  });
});
