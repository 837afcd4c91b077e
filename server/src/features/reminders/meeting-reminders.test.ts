import { and, eq } from "drizzle-orm";
import { mailOutbox, notifications } from "../../db/schema";
import { hourMs, lifecycleFixtures } from "../../testing/lifecycle-fixtures";
import { notificationFixtures } from "../../testing/notification-fixtures";
import { useTestContext } from "../../testing/test-context";
import { sendMeetingReminders } from "./meeting-reminders.service";

/** A meeting's participants are reminded once, in the 24 hours before it starts, and again if it moves. */
const testStart = "2026-06-01T09:00:00.000Z";
const ctx = useTestContext();
afterEach(() => ctx.clock.set(testStart));

const { schedule, update } = lifecycleFixtures(ctx);
const minute = 60_000;
const board = (name: string) => ctx.board(name, { firstName: "Fay", lastName: "Founder" });

const { setSwitch, kindsOf, mailsOf, scheduleWith } = notificationFixtures(ctx);

async function bellOf(userId: number, meetingId: number) {
  return ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.link, `/meetings/${meetingId}`)));
}

describe("each kind is created, and suppressed by its switch", () => {
  it("meeting reminder: once per meeting and participant within 24 h of the start, however often the job runs; none with Meeting Reminders off", async () => {
    const { founder, member } = await ctx.board("Reminder Co");
    const on = await member();
    const off = await member();
    await setSwitch(off.id, "meetingReminders", false);
    const start = new Date(ctx.clock.now().getTime() + 30 * 60 * minute);
    const meeting = await scheduleWith(founder.bearer, [founder.id, on.id, off.id], "Reminder meeting", start);
    await ctx.db.delete(notifications).where(eq(notifications.userId, on.id));
    await ctx.db.delete(mailOutbox).where(eq(mailOutbox.userId, on.id));

    await sendMeetingReminders(ctx.deps); // 30 h ahead: too early
    expect(await kindsOf(on.id)).toEqual([]);
    ctx.clock.advance(7 * 60 * minute); // 23 h ahead
    try {
      await sendMeetingReminders(ctx.deps);
      await sendMeetingReminders(ctx.deps);
      ctx.clock.advance(60 * minute);
      await sendMeetingReminders(ctx.deps);
    } finally {
      ctx.clock.advance(-8 * 60 * minute);
    }
    const reminders = await ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, on.id), eq(notifications.kind, "meetingReminder")));
    expect(reminders.map((row) => [row.title, row.link])).toEqual([["Reminder: Reminder meeting in 23 hours", `/meetings/${meeting.id}`]]);
    expect(await mailsOf(on.id)).toHaveLength(1);
    expect(await kindsOf(founder.id)).toEqual(["meetingReminder"]);
    expect(await kindsOf(off.id)).toEqual([]);
  });
});

describe("a moved meeting is reminded again", () => {
  it("the reminder sent before the move does not stand for the new time", async () => {
    const { founder, member } = await board("Reminded Ltd");
    const ann = await member("member");
    const id = await schedule(founder, new Date(new Date(testStart).getTime() + 20 * hourMs), { participants: [ann.id] });
    const reminders = async () => (await bellOf(ann.id, id)).filter((row) => row.kind === "meetingReminder").map((row) => row.title);

    await sendMeetingReminders(ctx.deps);
    await sendMeetingReminders(ctx.deps);
    expect(await reminders()).toEqual(["Reminder: Q3 Board Meeting in 20 hours"]);

    const moved = new Date(new Date(testStart).getTime() + 22 * hourMs);
    expect((await update(founder, id, { date: moved.toISOString() })).status).toBe(200);
    await sendMeetingReminders(ctx.deps);
    await sendMeetingReminders(ctx.deps);
    expect(await reminders()).toEqual(["Reminder: Q3 Board Meeting in 20 hours", "Reminder: Q3 Board Meeting in 22 hours"]);
  });
});
