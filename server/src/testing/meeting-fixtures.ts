import { count } from "drizzle-orm";
import request from "supertest";
import { documents, meetingParticipants, meetings, notifications } from "../db/schema";
import { meetingContent as meetingContentFor } from "./factories";
import type { SignedUp, TestContext } from "./test-context";

// What the meeting scheduling tests share: a board, a meeting's content and upload body, and the rows it writes.

/** Where the test clock starts (createTestClock's default). */
export const meetingsTestStart = "2026-06-01T09:00:00.000Z";
const day = 24 * 60 * 60 * 1000;

export function meetingFixtures(ctx: Pick<TestContext, "app" | "board" | "db">) {
  const api = () => request(ctx.app);

  /** A founder with an active company, plus members made on demand. */
  const board = (name = "Acme Holdings") => ctx.board(name, { firstName: "Fay", lastName: "Founder" });

  function meetingContent(overrides: Record<string, unknown> = {}) {
    return meetingContentFor(new Date(new Date(meetingsTestStart).getTime() + 3 * day), {
      agenda: "1. Call to order (5 min)",
      ...overrides,
    });
  }

  function meetingBody(user: SignedUp, content: unknown, extra: Record<string, unknown> = {}) {
    const text = typeof content === "string" ? content : JSON.stringify(content);
    return {
      name: "Meeting: whatever the client says",
      fileType: "application/json",
      fileSize: text.length,
      content: text,
      category: "Meeting",
      companyId: user.companyId,
      uploadedBy: user.id,
      ...extra,
    };
  }

  async function schedule(user: SignedUp, content: unknown, extra: Record<string, unknown> = {}) {
    // The user's company may have been set after sign-up: read the current one.
    const me = await api().get("/api/auth/user").set("Authorization", user.bearer);
    const body = meetingBody({ ...user, companyId: me.body.companyId }, content, extra);
    return api().post("/api/documents").set("Authorization", user.bearer).send(body);
  }

  async function rowCounts() {
    const [docs] = await ctx.db.select({ n: count() }).from(documents);
    const [meets] = await ctx.db.select({ n: count() }).from(meetings);
    const [parts] = await ctx.db.select({ n: count() }).from(meetingParticipants);
    const [notes] = await ctx.db.select({ n: count() }).from(notifications);
    return { documents: docs!.n, meetings: meets!.n, participants: parts!.n, notifications: notes!.n };
  }

  return { api, board, meetingContent, meetingBody, schedule, rowCounts };
}
