import { and, eq } from "drizzle-orm";
import { maxMinutesLength, type MinutesDraft } from "../../../../shared/meeting-record";
import { deniedMessage } from "../../../../shared/permissions";
import { mailOutbox, meetingAttendance, meetingMinutes, meetings, notifications, userPreferences } from "../../db/schema";
import { scheduleMeeting } from "../../testing/factories";
import { minutesFixtures, minutesTestStart } from "../../testing/minutes-fixtures";
import { useTestContext } from "../../testing/test-context";
import { cancelledRecordMessage } from "./attendance.service";
import { readMinutesRecord } from "./minutes-record.data";
import { approvedMinutesMessage, circulatedMessage, noMinutesMessage, notCirculatedMessage } from "./minutes.service";

const ctx = useTestContext();
afterEach(() => ctx.clock.set(minutesTestStart));
const fixtures = minutesFixtures(ctx);
const { getMinutes, draft, edit, circulate, approve, knownRecord, smallBoard, recordAttendance } = fixtures;

const linesOf = (text: string) => text.split("\n");

describe("POST /api/meetings/:id/minutes/draft writes the minutes from the record", () => {
  it("states the header, attendance, quorum, each item with its papers and resolutions, the action items and the close", async () => {
    const { cal, meetingId } = await knownRecord();
    const response = await draft(cal, meetingId);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const body = response.body as MinutesDraft;
    expect(body).toMatchObject({ status: "draft", improvement: null, updatedAt: minutesTestStart, approvedAt: null, resolutionId: null });
    const text = body.text!;
    expect(text.startsWith("# Minutes of Q3 Board Meeting\n\nZenith Holdings\n\n")).toBe(true);
    // No time of close was recorded: the schedule is named as such, never passed off as the close.
    expect(text.endsWith("\n\nThe time the meeting closed was not recorded.\n")).toBe(true);
    const lines = linesOf(text);
    for (const line of [
      "- Date: 10 Jun 2026",
      "- Started: 10:00 UTC",
      "- Closed: not recorded (scheduled to end at 12:00 UTC)",
      "- Location: Head office, London",
      "- Chair: Fay Founder",
      "- Present: Bob Brown, Fay Founder, Obi Observer",
      "- Present by video: Ann Adams",
      "- Apologies: Cal Clark",
      "- Absent: Dee Davis",
      "- Guests: Gus Guest",
      "Quorate: 3 of 5 voting members present.",
      "### 1. Finance",
      "- Presenter: Ann Adams",
      "- Papers: Budget 2026.txt, Forecast.txt",
      "#### Resolution: Approve the 2026 budget (Ordinary)",
      "That the budget for 2026 be approved as presented.",
      "Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain",
      "Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain",
      "### 2. Hiring",
      "#### Resolution: Appoint a CFO (Special)",
      "Not decided",
      "### 3. Any other business",
      "- Send the budget to the bank: Ann Adams, due 24 Jun 2026",
      "- Draft the CFO job description: Bob Brown, due 1 Jul 2026",
    ]) {
      expect(lines).toContain(line);
    }
    // Items and resolutions in the agenda's order.
    const at = (line: string) => lines.indexOf(line);
    expect(at("### 1. Finance")).toBeLessThan(at("#### Resolution: Approve the 2026 budget (Ordinary)"));
    expect(at("Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain")).toBeLessThan(
      at("Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain"),
    );
    expect(at("Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain")).toBeLessThan(at("### 2. Hiring"));
    expect(lines.some((line) => line.startsWith("- Ended:"))).toBe(false);
    expect(at("### 2. Hiring")).toBeLessThan(at("Not decided"));

    const [stored] = await ctx.db.select().from(meetingMinutes).where(eq(meetingMinutes.meetingId, meetingId));
    expect(stored).toMatchObject({ status: "draft", text, updatedBy: cal.id });
  });

  it("writes the recorded time of close (with its day when past midnight) and a resolution decided at another meeting", async () => {
    const { fay, cal, company, meetingId } = await knownRecord("Closed Late Ltd");
    const earlier = await scheduleMeeting(ctx.app, cal, new Date("2026-06-03T16:00:00.000Z"), { title: "Emergency meeting" });
    const hired = await fixtures.addResolution(company.id, fay.id, {
      title: "Hire an auditor",
      description: "That Audit & Co be engaged.",
      status: "approved",
      tally: { yes: 4, no: 0, abstain: 1 },
      decidedIn: earlier,
      decidedAt: new Date("2026-06-04T00:30:00.000Z"),
    });
    const agenda = await fixtures
      .api()
      .put(`/api/meetings/${meetingId}/agenda`)
      .set("Authorization", cal.bearer)
      .send({ items: [{ title: "Audit", durationMinutes: 10, resolutionIds: [hired] }] });
    expect(agenda.status, JSON.stringify(agenda.body)).toBe(200);

    await ctx.db
      .update(meetings)
      .set({ closedAt: new Date("2026-06-10T11:47:00.000Z") })
      .where(eq(meetings.documentId, meetingId));
    const text = (await draft(fay, meetingId)).body.text as string;
    expect(linesOf(text)).toContain("- Ended: 11:47 UTC");
    expect(linesOf(text)).not.toContain("- Closed: not recorded (scheduled to end at 12:00 UTC)");
    expect(text.endsWith("\n\nThe meeting closed at 11:47 UTC.\n")).toBe(true);
    // Where it was decided is the meeting that started on 3 Jun, not the day the hands were counted.
    expect(linesOf(text)).toContain("Approved by show of hands at the meeting of 3 Jun 2026: 4 yes, 0 no, 1 abstain");

    await ctx.db
      .update(meetings)
      .set({ closedAt: new Date("2026-06-11T00:15:00.000Z") })
      .where(eq(meetings.documentId, meetingId));
    const late = (await draft(fay, meetingId)).body.text as string;
    expect(linesOf(late)).toContain("- Ended: 11 Jun 2026, 00:15 UTC");
    expect(late.endsWith("\n\nThe meeting closed at 11 Jun 2026, 00:15 UTC.\n")).toBe(true);
  });

  it("gives the same text byte for byte for the same record, and follows the record when it changes", async () => {
    const { fay, dee, meetingId } = await knownRecord("Same Text Ltd");
    const first = (await draft(fay, meetingId)).body.text as string;
    ctx.clock.set("2026-06-12T08:00:00.000Z");
    const second = (await draft(fay, meetingId)).body.text as string;
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);

    await ctx.db.insert(meetingAttendance).values({ meetingId, userId: dee.id, status: "present" });
    const third = (await draft(fay, meetingId)).body.text as string;
    expect(linesOf(third)).toContain("- Present: Bob Brown, Dee Davis, Fay Founder, Obi Observer");
    expect(linesOf(third)).toContain("- Absent: none");
    expect(linesOf(third)).toContain("Quorate: 4 of 5 voting members present.");
  });

  it("says plainly that a meeting was not quorate, and that no chair was recorded", async () => {
    const { founder, admin, plain, meetingId } = await smallBoard("Thin Board Ltd");
    await ctx.db.delete(meetingAttendance).where(eq(meetingAttendance.meetingId, meetingId));
    await recordAttendance(meetingId, [
      { userId: founder.id, status: "present" },
      { userId: admin.id, status: "apologies" },
      { userId: plain.id, status: "absent" },
    ]);
    const text = (await draft(founder, meetingId)).body.text as string;
    const lines = linesOf(text);
    expect(lines).toContain("Not quorate: 1 of 3 voting members present (2 needed). The meeting was not quorate.");
    expect(lines).toContain("- Chair: not recorded");
    expect(lines).toContain("No agenda items were recorded.");
    expect(lines).toContain("No action items.");
    expect(lines).toContain("- Guests: none");
  });

  it("reads the record in a fixed number of queries, whatever the size of the agenda", async () => {
    const { fay, ann, bob, cal, meetingId, resolutionIds } = await knownRecord("Many Items Ltd");
    const before = await ctx.countQueries(() => readMinutesRecord(ctx.db, meetingId));
    expect(before).toBeLessThanOrEqual(12);
    const papers = [await fixtures.upload(fay, "One.txt"), await fixtures.upload(fay, "Two.txt"), await fixtures.upload(fay, "Three.txt")];
    const presenters = [ann.id, bob.id, cal.id, fay.id];
    const items = Array.from({ length: 12 }, (_, index) => ({
      title: `Item ${index + 1}`,
      durationMinutes: 5,
      presenterId: presenters[index % presenters.length],
      documentIds: papers.slice(0, 1 + (index % papers.length)),
      resolutionIds: Object.values(resolutionIds).slice(0, 1 + (index % 3)),
    }));
    const agenda = await fixtures.api().put(`/api/meetings/${meetingId}/agenda`).set("Authorization", cal.bearer).send({ items });
    expect(agenda.status, JSON.stringify(agenda.body)).toBe(200);
    let record: Awaited<ReturnType<typeof readMinutesRecord>> | undefined;
    expect(await ctx.countQueries(async () => (record = await readMinutesRecord(ctx.db, meetingId)))).toBe(before);
    expect(record!.items).toHaveLength(12);
    expect(record!.items[11]).toMatchObject({ title: "Item 12", presenter: "Fay Founder", papers: ["One.txt", "Two.txt", "Three.txt"] });
  });
});

describe("who sees and keeps the minutes", () => {
  it("before a first draft every member reads status none with nulls", async () => {
    const { obi, meetingId } = await knownRecord("None Yet Ltd");
    const response = await getMinutes(obi, meetingId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: "none",
      text: null,
      updatedAt: null,
      circulatedAt: null,
      approvedAt: null,
      approvedVia: null,
      approvedBy: null,
      sha256: null,
      documentId: null,
      resolutionId: null,
    });
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
    for (const response of [
      await draft(founder, meetingId),
      await edit(founder, meetingId, "Rewritten"),
      await circulate(founder, meetingId),
      await approve(founder, meetingId, "chair"),
      await approve(founder, meetingId, "resolution"),
    ]) {
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
    for (const response of [
      await draft(founder, meetingId),
      await edit(founder, meetingId, "Rewritten"),
      await circulate(founder, meetingId),
      await approve(founder, meetingId, "chair"),
      await approve(founder, meetingId, "resolution"),
    ]) {
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
