import { and, eq, inArray } from "drizzle-orm";
import type { NotificationKind } from "../../../shared/preferences";
import { notifications } from "../db/schema";
import { startBackgroundJobs } from "../features/reminders/worker";
import type { TestContext } from "./test-context";

/** The worker's rounds on a moved clock, and the notices of one kind they leave in the bell. */
export function reminderFixtures(ctx: Pick<TestContext, "db" | "deps" | "clock">) {
  /** Runs `work` with the clock moved by `ms`, and puts it back afterwards. */
  async function later<T>(ms: number, work: () => Promise<T>): Promise<T> {
    ctx.clock.advance(ms);
    try {
      return await work();
    } finally {
      ctx.clock.advance(-ms);
    }
  }

  /** One round of the worker, as its timer runs it (reminders, digest, outbox). */
  async function workerRound() {
    const jobs = startBackgroundJobs(ctx.deps, { start: false });
    await jobs.runOnce();
    await jobs.stop();
  }

  /** A user's notices of `kind` in the bell, oldest first. */
  const bellOf = (userId: number, kind: NotificationKind) =>
    ctx.db
      .select({ title: notifications.title, body: notifications.body, link: notifications.link })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)))
      .orderBy(notifications.id);

  /** The notices of `kind` that reached any of these users. */
  const toldAmong = (kind: NotificationKind, userIds: number[]) =>
    ctx.db
      .select({ id: notifications.id, link: notifications.link })
      .from(notifications)
      .where(and(eq(notifications.kind, kind), inArray(notifications.userId, userIds)));

  return { later, workerRound, bellOf, toldAmong };
}
