import { eq } from "drizzle-orm";
import request from "supertest";
import { companies } from "../db/schema";
import { meetingContent } from "./factories";
import type { SignedUp, TestContext } from "./test-context";

// What the compliance endpoint tests share: a board created on the test clock's day, and its meetings.

export function complianceFixtures(ctx: Pick<TestContext, "app" | "clock" | "board" | "db">) {
  const api = () => request(ctx.app);

  /** A board whose company was created on the test clock's day (the factory uses the database's time). */
  async function board(name: string) {
    const made = await ctx.board(name);
    await ctx.db.update(companies).set({ createdAt: ctx.clock.now() }).where(eq(companies.id, made.company.id));
    return made;
  }

  async function schedule(user: SignedUp, start: Date, title: string): Promise<number> {
    const response = await api()
      .post("/api/documents")
      .set("Authorization", user.bearer)
      .send({ category: "Meeting", content: JSON.stringify(meetingContent(start, { title, status: "confirmed" })) });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.id as number;
  }

  return { api, board, schedule };
}
