import { eq } from "drizzle-orm";
import request from "supertest";
import type { PreferenceKey } from "../../../shared/preferences";
import { mailOutbox, notifications, userPreferences } from "../db/schema";
import { meetingContent } from "./factories";
import type { TestContext } from "./test-context";

/** What a user was notified of, in the bell and in the mail outbox, and their switches written straight into the database. */
export function notificationFixtures(ctx: Pick<TestContext, "db" | "app">) {
  /** Writes a user's switch straight into their preferences row. */
  async function setSwitch(userId: number, key: PreferenceKey, value: boolean) {
    await ctx.db
      .insert(userPreferences)
      .values({ userId, settings: { [key]: value } })
      .onConflictDoUpdate({ target: userPreferences.userId, set: { settings: { [key]: value } } });
  }

  async function kindsOf(userId: number): Promise<string[]> {
    const rows = await ctx.db.select({ kind: notifications.kind }).from(notifications).where(eq(notifications.userId, userId));
    return rows.map((row) => row.kind);
  }

  const mailsOf = (userId: number) => ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, userId));

  /** Schedules a meeting through the API, telling its participants. */
  async function scheduleWith(bearer: string, participants: number[], title: string, start: Date) {
    const response = await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", bearer)
      .send({
        category: "Meeting",
        sendNotifications: true,
        content: JSON.stringify(meetingContent(start, { title, participants: participants.map(String) })),
      });
    expect(response.status).toBe(201);
    return response.body as { id: number };
  }

  return { setSwitch, kindsOf, mailsOf, scheduleWith };
}
