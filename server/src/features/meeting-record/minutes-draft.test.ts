import { eq } from "drizzle-orm";
import { type MinutesDraft } from "../../../../shared/meeting-record";
import { meetingAttendance, meetingMinutes, meetings } from "../../db/schema";
import { scheduleMeeting } from "../../testing/factories";
import { minutesFixtures, minutesTestStart } from "../../testing/minutes-fixtures";
import { useTestContext } from "../../testing/test-context";
import { readMinutesRecord } from "./minutes-record.data";

const ctx = useTestContext();
afterEach(() => ctx.clock.set(minutesTestStart));
const fixtures = minutesFixtures(ctx);
const { draft, knownRecord, smallBoard, recordAttendance } = fixtures;

const linesOf = (text: string) => text.split("\n");

describe("POST /api/meetings/:id/minutes/draft writes the minutes from the record", () => {
  it("states the header, attendance, quorum, each item with its purpose, papers and resolutions, the action items and the close", async () => {
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
      "### 1. Finance (for decision)",
      "- Presenter: Ann Adams",
      "- Papers: Budget 2026.txt, Forecast.txt",
      "#### Resolution: Approve the 2026 budget (Ordinary)",
      "That the budget for 2026 be approved as presented.",
      "Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain",
      "Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain",
      "### 2. Hiring (for discussion)",
      "#### Resolution: Appoint a CFO (Special)",
      "Not decided",
      "### 3. Any other business (for noting)",
      "- Send the budget to the bank: Ann Adams, due 24 Jun 2026",
      "- Draft the CFO job description: Bob Brown, due 1 Jul 2026",
    ]) {
      expect(lines).toContain(line);
    }
    // Items and resolutions in the agenda's order.
    const at = (line: string) => lines.indexOf(line);
    expect(at("### 1. Finance (for decision)")).toBeLessThan(at("#### Resolution: Approve the 2026 budget (Ordinary)"));
    expect(at("Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain")).toBeLessThan(
      at("Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain"),
    );
    expect(at("Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain")).toBeLessThan(at("### 2. Hiring (for discussion)"));
    expect(lines.some((line) => line.startsWith("- Ended:"))).toBe(false);
    expect(at("### 2. Hiring (for discussion)")).toBeLessThan(at("Not decided"));

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
    expect(before).toBeLessThanOrEqual(13);
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
