import { and, eq } from "drizzle-orm";
import { maxMinutesLength } from "../../../../shared/meeting-record";
import { mailOutbox, notifications, userPreferences } from "../../db/schema";
import { minutesFixtures, minutesTestStart } from "../../testing/minutes-fixtures";
import { useTestContext } from "../../testing/test-context";
import { cancelledRecordMessage } from "./attendance.service";
import { approvedMinutesMessage, circulatedMessage, noMinutesMessage, notCirculatedMessage } from "./minutes.service";

const ctx = useTestContext();
afterEach(() => ctx.clock.set(minutesTestStart));
const fixtures = minutesFixtures(ctx);
const { getMinutes, draft, edit, circulate, approve, knownRecord, smallBoard } = fixtures;
type Founder = Awaited<ReturnType<typeof smallBoard>>["founder"];

/** Each write on the minutes in turn (draft, edit, circulate, approve by the chair and by resolution): their answers. */
async function everyWriteStep(founder: Founder, meetingId: number) {
  return [
    await draft(founder, meetingId),
    await edit(founder, meetingId, "Rewritten"),
    await circulate(founder, meetingId),
    await approve(founder, meetingId, "chair"),
    await approve(founder, meetingId, "resolution"),
  ];
}

describe("draft → circulated → approved", () => {
  it("a cancelled meeting has no minutes: drafting, editing, circulating and approving are each a 409", async () => {
    const { founder, meetingId } = await smallBoard("Called Off Ltd");
    expect((await draft(founder, meetingId)).status).toBe(200);
    expect((await circulate(founder, meetingId)).status).toBe(200);
    const cancel = await fixtures
      .api()
      .patch(`/api/meetings/${meetingId}`)
      .set("Authorization", founder.bearer)
      .send({ status: "cancelled" });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const refusal = { message: cancelledRecordMessage };
    for (const response of await everyWriteStep(founder, meetingId)) {
      expect(response.status).toBe(409);
      expect(response.body).toEqual(refusal);
    }
    expect((await getMinutes(founder, meetingId)).body).toMatchObject({ status: "circulated", resolutionId: null });
  });

  it("edits and circulation follow the states; each wrong step is a 409", async () => {
    const { founder, meetingId } = await smallBoard("States Ltd");
    expect((await edit(founder, meetingId, "Too early")).body).toEqual({ message: noMinutesMessage });
    expect((await circulate(founder, meetingId)).status).toBe(409);
    expect((await approve(founder, meetingId, "chair")).body).toEqual({ message: notCirculatedMessage });

    expect((await draft(founder, meetingId)).status).toBe(200);
    expect((await approve(founder, meetingId, "chair")).body).toEqual({ message: notCirculatedMessage });
    ctx.clock.set("2026-06-11T08:00:00.000Z");
    const edited = await edit(founder, meetingId, "  # Minutes\n\nAs written by the secretary.  ");
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      status: "draft",
      text: "# Minutes\n\nAs written by the secretary.",
      updatedAt: "2026-06-11T08:00:00.000Z",
    });

    const circulated = await circulate(founder, meetingId);
    expect(circulated.status).toBe(200);
    expect(circulated.body).toMatchObject({ status: "circulated", circulatedAt: "2026-06-11T08:00:00.000Z" });
    expect((await circulate(founder, meetingId)).status).toBe(409);
    expect((await draft(founder, meetingId)).body).toEqual({ message: circulatedMessage });
    // Circulated minutes can still be corrected.
    const corrected = await edit(founder, meetingId, "# Minutes\n\nCorrected.");
    expect(corrected.body).toMatchObject({ status: "circulated", text: "# Minutes\n\nCorrected." });

    expect((await approve(founder, meetingId, "chair")).status).toBe(200);
    for (const response of await everyWriteStep(founder, meetingId)) {
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: approvedMinutesMessage });
    }
  });

  it("refuses a text over 200,000 characters or with control characters (400), and keeps the old one", async () => {
    const { founder, meetingId } = await smallBoard("Long Text Ltd");
    const drafted = (await draft(founder, meetingId)).body.text as string;
    const tooLong = await edit(founder, meetingId, "x".repeat(maxMinutesLength + 1));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([{ path: "text", message: "Minutes must be at most 200,000 characters" }]);
    expect((await edit(founder, meetingId, "Bad \u0000 byte")).status).toBe(400);
    expect((await edit(founder, meetingId, "x".repeat(maxMinutesLength))).status).toBe(200);
    await edit(founder, meetingId, drafted);
    expect((await getMinutes(founder, meetingId)).body.text).toBe(drafted.trim());
  });

  it("circulating tells every participant but the one who circulated, by bell and e-mail, under Meeting Reminders", async () => {
    const { fay, ann, bob, cal, dee, obi, meetingId } = await knownRecord("Circulation Ltd");
    await ctx.db.insert(userPreferences).values({ userId: dee.id, settings: { meetingReminders: false } });
    expect((await draft(cal, meetingId)).status).toBe(200);
    expect((await circulate(cal, meetingId)).status).toBe(200);
    const bell = async (userId: number) =>
      ctx.db
        .select({ kind: notifications.kind, title: notifications.title, body: notifications.body })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.link, `/meetings/${meetingId}`)));
    for (const told of [fay, ann, bob, obi]) {
      expect(await bell(told.id)).toEqual([
        {
          kind: "minutesCirculated",
          title: "Minutes to read: Q3 Board Meeting",
          body: 'Cal Clark circulated the minutes of "Q3 Board Meeting" (10 Jun 2026) for approval.',
        },
      ]);
      const mails = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, told.id));
      expect(mails.map((mail) => (mail.message as { kind: string }).kind)).toContain("minutesCirculated");
    }
    expect(await bell(cal.id)).toEqual([]);
    expect(await bell(dee.id)).toEqual([]);
  });
});
