import { and, eq } from "drizzle-orm";
import type { ActionItem } from "../../../../shared/meeting-record";
import { mailOutbox, memberships, notifications, userPreferences } from "../../db/schema";
import { lifecycleFixtures } from "../../testing/lifecycle-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { sendActionItemReminders } from "./action-item-reminders.service";
import { startBackgroundJobs } from "./worker";

/** The day before an action item's due date (UTC), its owner is told once: in the bell and by e-mail. */
const testStart = "2026-06-01T09:00:00.000Z";
const ctx = useTestContext();
afterEach(() => ctx.clock.set(testStart));

const { api, schedule } = lifecycleFixtures(ctx);

async function addItem(user: SignedUp, meetingId: number, body: { title: string; ownerId: number; dueDate: string }): Promise<ActionItem> {
  const response = await api().post(`/api/meetings/${meetingId}/action-items`).set("Authorization", user.bearer).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as ActionItem;
}

const remindersOf = (userId: number) =>
  ctx.db
    .select({ title: notifications.title, body: notifications.body, link: notifications.link })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, "actionItemDue")));

async function reminderMailsOf(userId: number) {
  const rows = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, userId));
  return rows.map((row) => row.message as { kind?: string; title?: string }).filter((message) => message.kind === "actionItemDue");
}

/** One round of the worker, as its timer runs it. */
async function workerRound() {
  const jobs = startBackgroundJobs(ctx.deps, { start: false });
  await jobs.runOnce();
  await jobs.stop();
}

async function boardWithMeeting(name: string) {
  const { founder, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
  const meetingId = await schedule(founder, new Date("2026-06-02T10:00:00.000Z"), { title: "June board" });
  return { founder, company, member, meetingId };
}

describe("action item reminders", () => {
  it("go out on the UTC day before the due date, not the day before that, once however often the worker runs", async () => {
    const { founder, member, meetingId } = await boardWithMeeting("Reminder Co");
    const owner = await member("observer");
    const item = await addItem(founder, meetingId, { title: "Send the accounts", ownerId: owner.id, dueDate: "2026-06-05" });

    ctx.clock.set("2026-06-03T23:59:59.999Z"); // two days before
    await workerRound();
    expect(await remindersOf(owner.id)).toEqual([]);

    ctx.clock.set("2026-06-04T00:00:00.000Z");
    await workerRound();
    const told = [
      {
        title: "Action item due tomorrow: Send the accounts",
        body: '"Send the accounts", from "June board", is due 5 Jun 2026.',
        link: `/meetings/${item.meetingId}`,
      },
    ];
    expect(await remindersOf(owner.id)).toEqual(told);
    expect(await reminderMailsOf(owner.id)).toEqual([expect.objectContaining({ title: told[0]!.title })]);

    ctx.clock.set("2026-06-04T23:00:00.000Z");
    await workerRound();
    expect(await sendActionItemReminders(ctx.deps)).toBe(0);
    expect(await remindersOf(owner.id)).toEqual(told);
    expect(await reminderMailsOf(owner.id)).toHaveLength(1);
    // Nobody else hears of it.
    expect(await remindersOf(founder.id)).toEqual([]);
  });

  it("passes over done items, owners who switched Meeting Reminders off, and owners no longer members", async () => {
    const { founder, company, member, meetingId } = await boardWithMeeting("Skip Co");
    const [finished, quiet, departed, waiting] = [await member(), await member(), await member(), await member()];
    const due = "2026-06-05";
    const done = await addItem(founder, meetingId, { title: "Finished", ownerId: finished.id, dueDate: due });
    expect((await api().patch(`/api/action-items/${done.id}`).set("Authorization", finished.bearer).send({ status: "done" })).status).toBe(
      200,
    );
    await addItem(founder, meetingId, { title: "Quiet", ownerId: quiet.id, dueDate: due });
    await ctx.db.insert(userPreferences).values({ userId: quiet.id, settings: { meetingReminders: false } });
    await addItem(founder, meetingId, { title: "Departed", ownerId: departed.id, dueDate: due });
    await ctx.db.delete(memberships).where(and(eq(memberships.companyId, company.id), eq(memberships.userId, departed.id)));
    await addItem(founder, meetingId, { title: "Waiting", ownerId: waiting.id, dueDate: due });

    ctx.clock.set("2026-06-04T08:00:00.000Z");
    expect(await sendActionItemReminders(ctx.deps)).toBe(1);
    expect((await remindersOf(waiting.id)).map((row) => row.title)).toEqual(["Action item due tomorrow: Waiting"]);
    for (const person of [finished, quiet, departed]) {
      expect(await remindersOf(person.id)).toEqual([]);
      expect(await reminderMailsOf(person.id)).toEqual([]);
    }
    // Switching back on the same day does not bring the reminder back: it was passed over for good.
    await ctx.db
      .update(userPreferences)
      .set({ settings: { meetingReminders: true } })
      .where(eq(userPreferences.userId, quiet.id));
    expect(await sendActionItemReminders(ctx.deps)).toBe(0);
  });

  it("reminds again when the due date moves, before the new date", async () => {
    const { founder, member, meetingId } = await boardWithMeeting("Move Co");
    const owner = await member();
    const item = await addItem(founder, meetingId, { title: "Draft the plan", ownerId: owner.id, dueDate: "2026-06-05" });
    ctx.clock.set("2026-06-04T08:00:00.000Z");
    expect(await sendActionItemReminders(ctx.deps)).toBe(1);
    const moved = await api().patch(`/api/action-items/${item.id}`).set("Authorization", founder.bearer).send({ dueDate: "2026-06-08" });
    expect(moved.status).toBe(200);
    ctx.clock.set("2026-06-07T08:00:00.000Z");
    expect(await sendActionItemReminders(ctx.deps)).toBe(1);
    expect(await remindersOf(owner.id)).toHaveLength(2);
  });
});
