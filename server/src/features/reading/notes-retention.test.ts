import { and, eq, inArray } from "drizzle-orm";
import { formatUtcDate } from "../../clock";
import { companies, mailOutbox, meetingMinutes, notifications, paperNotes } from "../../db/schema";
import { scheduleMeeting } from "../../testing/factories";
import { readingFixtures } from "../../testing/reading-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { sweepNoteRetention } from "./notes-retention.service";

const ctx = useTestContext();
const testStart = "2026-06-01T09:00:00.000Z";
afterEach(() => ctx.clock.set(testStart));
const { as, board, paper, putAgenda } = readingFixtures(ctx);
const dayMs = 24 * 60 * 60 * 1000;

const approve = (meetingId: number, at: Date) =>
  ctx.db.insert(meetingMinutes).values({ meetingId, status: "approved", text: "Minutes", approvedAt: at, updatedAt: at });
const note = async (user: SignedUp, documentId: number, text: string) => {
  const response = await as(user).post(`/api/documents/${documentId}/notes`, { version: 1, page: 1, text });
  expect(response.status).toBe(201);
};
const notesLeft = async (documentIds: number[]) =>
  (await ctx.db.select({ documentId: paperNotes.documentId }).from(paperNotes).where(inArray(paperNotes.documentId, documentIds)))
    .map((row) => row.documentId)
    .sort((a, b) => a - b);
const notices = (userIds: number[]) =>
  ctx.db
    .select({ userId: notifications.userId, title: notifications.title, link: notifications.link })
    .from(notifications)
    .where(and(inArray(notifications.userId, userIds), eq(notifications.kind, "notesDeletionSoon")))
    .orderBy(notifications.id);

describe("the notes retention sweep", () => {
  it("tells authors a week ahead, once, and deletes a meeting's notes when due: a paper on a later meeting waits for it", async () => {
    const start = ctx.clock.now().getTime();
    const at = (days: number, ms = 0) => ctx.clock.set(new Date(start + days * dayMs + ms));
    const { founder, ann, ben, oscar, company, meetingId, papers } = await board("Retention Ltd");
    await ctx.db.update(companies).set({ notesRetentionDays: 30 }).where(eq(companies.id, company.id));
    // The plan is on a second meeting too, approved ten days later; a third paper on a meeting not yet approved.
    const later = await scheduleMeeting(ctx.app, founder, new Date("2026-08-01T10:00:00.000Z"), { title: "August board" });
    await putAgenda(founder, later, [[papers.plan]]);
    const pending = await scheduleMeeting(ctx.app, founder, new Date("2026-09-01T10:00:00.000Z"), { title: "September board" });
    const waiting = await paper(founder, "Waiting.pdf", 1);
    await putAgenda(founder, pending, [[waiting]]);
    await note(ann, papers.budget, "Budget question");
    await note(ben, papers.budget, "Ben's budget question");
    await note(ann, papers.plan, "Plan question");
    await note(ann, waiting, "Waiting question");
    await approve(meetingId, new Date(start));
    await approve(later, new Date(start + 10 * dayMs));
    const all = [papers.budget, papers.plan, waiting];
    const everyone = [ann.id, ben.id, oscar.id, founder.id];

    at(22, 23 * 60 * 60 * 1000);
    expect(await sweepNoteRetention(ctx.deps)).toBe(0);
    expect(await notices(everyone)).toEqual([]);

    at(23);
    await sweepNoteRetention(ctx.deps);
    const first = await notices(everyone);
    expect(first).toEqual(
      [
        {
          userId: ann.id,
          title: `Your notes on "Retention Ltd board" will be deleted on ${formatUtcDate(new Date(start + 30 * dayMs))}`,
          link: `/meetings/${meetingId}`,
        },
        {
          userId: ben.id,
          title: `Your notes on "Retention Ltd board" will be deleted on ${formatUtcDate(new Date(start + 30 * dayMs))}`,
          link: `/meetings/${meetingId}`,
        },
      ].sort((a, b) => a.userId - b.userId),
    );
    const mails = await ctx.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.userId, [ann.id, ben.id]));
    expect(mails.filter((mail) => (mail.message as { kind?: string }).kind === "notesDeletionSoon")).toHaveLength(2);
    at(24);
    await sweepNoteRetention(ctx.deps);
    expect(await notices(everyone)).toEqual(first);

    at(30, -1);
    expect(await sweepNoteRetention(ctx.deps)).toBe(0);
    expect(await notesLeft(all)).toEqual([papers.budget, papers.budget, papers.plan, waiting].sort((a, b) => a - b));
    at(30);
    expect(await sweepNoteRetention(ctx.deps)).toBe(2);
    expect(await notesLeft(all)).toEqual([papers.plan, waiting].sort((a, b) => a - b));

    at(33);
    await sweepNoteRetention(ctx.deps);
    expect((await notices(everyone)).slice(first.length)).toEqual([
      {
        userId: ann.id,
        title: `Your notes on "August board" will be deleted on ${formatUtcDate(new Date(start + 40 * dayMs))}`,
        link: `/meetings/${later}`,
      },
    ]);
    at(40);
    expect(await sweepNoteRetention(ctx.deps)).toBe(1);
    at(400);
    expect(await sweepNoteRetention(ctx.deps)).toBe(0);
    expect(await notesLeft(all)).toEqual([waiting]);
  });

  it("leaves every note of a company that keeps them", async () => {
    const { ann, meetingId, papers } = await board("Keeper Ltd");
    await note(ann, papers.budget, "Kept");
    await approve(meetingId, ctx.clock.now());
    ctx.clock.advance(5000 * dayMs);
    await sweepNoteRetention(ctx.deps);
    expect(await notesLeft([papers.budget])).toEqual([papers.budget]);
    expect(await notices([ann.id])).toEqual([]);
  });

  it("gives authors their week even when the retention is set after a meeting is past it", async () => {
    const start = ctx.clock.now().getTime();
    const { ann, company, meetingId, papers } = await board("Late Rule Ltd");
    await note(ann, papers.budget, "Late question");
    await approve(meetingId, new Date(start));
    ctx.clock.set(new Date(start + 100 * dayMs));
    await ctx.db.update(companies).set({ notesRetentionDays: 30 }).where(eq(companies.id, company.id));

    expect(await sweepNoteRetention(ctx.deps)).toBe(0);
    expect(await notices([ann.id])).toEqual([
      {
        userId: ann.id,
        title: `Your notes on "Late Rule Ltd board" will be deleted on ${formatUtcDate(new Date(start + 107 * dayMs))}`,
        link: `/meetings/${meetingId}`,
      },
    ]);
    ctx.clock.set(new Date(start + 107 * dayMs - 1));
    expect(await sweepNoteRetention(ctx.deps)).toBe(0);
    ctx.clock.set(new Date(start + 107 * dayMs));
    expect(await sweepNoteRetention(ctx.deps)).toBe(1);
  });
});
