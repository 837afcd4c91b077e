import { eq } from "drizzle-orm";
import request from "supertest";
import { documents, mailOutbox, resolutions, userPreferences } from "../../db/schema";
import { meetingContent } from "../../testing/factories";
import { useTestContext } from "../../testing/test-context";
import { buildDigests, digestSlotOf, sendWeeklyDigest } from "./digest.service";
import type { DigestCompany, DigestMessage } from "../notifications/outbox.service";
import { startBackgroundJobs } from "./worker";

const ctx = useTestContext();

const hour = 60 * 60 * 1000;
// The test clock starts on Monday 2026-06-01 at 09:00 UTC.
const monday0900 = new Date("2026-06-01T09:00:00.000Z");

describe("digestSlotOf", () => {
  it("is the latest Monday 08:00 UTC at or before the time", () => {
    expect(digestSlotOf(new Date("2026-06-01T08:00:00.000Z")).toISOString()).toBe("2026-06-01T08:00:00.000Z");
    expect(digestSlotOf(new Date("2026-06-01T07:59:59.000Z")).toISOString()).toBe("2026-05-25T08:00:00.000Z");
    expect(digestSlotOf(new Date("2026-06-07T23:00:00.000Z")).toISOString()).toBe("2026-06-01T08:00:00.000Z");
  });
});

describe("the digest builder (pure)", () => {
  const busy: DigestCompany = {
    name: "Busy & Co",
    meetings: [{ id: 4, title: "Board <meeting>", startsAt: "2026-06-03T10:00:00.000Z", location: "Room 1" }],
    openVotes: [{ id: 9, title: "Approve budget", deadline: "2026-06-05T17:00:00.000Z" }],
    newDocuments: [],
  };
  const quiet: DigestCompany = { name: "Quiet Ltd", meetings: [], openVotes: [], newDocuments: [] };

  it("gives each recipient the companies with something to tell, and nothing to one whose companies are all quiet", () => {
    const byCompany = new Map([
      [1, busy],
      [2, quiet],
    ]);
    const digests = buildDigests(
      "2026-06-01",
      [
        { userId: 10, email: "a@example.com", companyIds: [1, 2] },
        { userId: 11, email: "b@example.com", companyIds: [2] },
      ],
      byCompany,
    );
    expect(digests).toEqual([{ userId: 10, email: "a@example.com", message: { type: "digest", weekOf: "2026-06-01", companies: [busy] } }]);
  });
});

describe("the weekly digest job", () => {
  it("on Monday after 08:00 UTC queues one digest per user who keeps it on, with the week's meetings, open votes and new documents, once", async () => {
    ctx.clock.set(monday0900);
    const { founder, company, member } = await ctx.board("Digest Co");
    const on = await member();
    const off = await member();
    await ctx.db.insert(userPreferences).values({ userId: off.id, settings: { emailDigest: false } });
    const meeting = await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({
        category: "Meeting",
        content: JSON.stringify(meetingContent(new Date(monday0900.getTime() + 48 * hour), { title: "Weekly board" })),
      });
    expect(meeting.status).toBe(201);
    await request(ctx.app)
      .post("/api/documents")
      .set("Authorization", founder.bearer)
      .send({
        category: "Meeting",
        content: JSON.stringify(meetingContent(new Date(monday0900.getTime() + 10 * 24 * hour), { title: "Too far ahead" })),
      })
      .expect(201);
    await ctx.db.insert(resolutions).values([
      {
        companyId: company.id,
        title: "Open vote",
        description: "d",
        type: "Ordinary",
        deadline: new Date(monday0900.getTime() + 72 * hour),
        createdBy: founder.id,
      },
      {
        companyId: company.id,
        title: "Decided",
        description: "d",
        type: "Ordinary",
        status: "approved",
        deadline: new Date(monday0900.getTime() + 72 * hour),
        createdBy: founder.id,
      },
    ]);
    await ctx.db.insert(documents).values([
      {
        companyId: company.id,
        name: "Q2 accounts.pdf",
        fileType: "application/pdf",
        category: "Financial",
        uploadedBy: founder.id,
        createdAt: new Date(monday0900.getTime() - 24 * hour),
      },
      {
        companyId: company.id,
        name: "Old minutes.pdf",
        fileType: "application/pdf",
        category: "Minutes",
        uploadedBy: founder.id,
        createdAt: new Date(monday0900.getTime() - 9 * 24 * hour),
      },
    ]);

    expect(await sendWeeklyDigest(ctx.deps)).toBe(2);
    expect(await sendWeeklyDigest(ctx.deps)).toBe(0);
    const rows = await ctx.db.select().from(mailOutbox);
    expect(rows.map((row) => row.userId).sort()).toEqual([founder.id, on.id].sort());
    const message = rows[0]!.message as unknown as DigestMessage;
    expect(message).toEqual({
      type: "digest",
      weekOf: "2026-06-01",
      companies: [
        {
          name: "Digest Co",
          meetings: [
            {
              id: meeting.body.id,
              title: "Weekly board",
              startsAt: new Date(monday0900.getTime() + 48 * hour).toISOString(),
              location: "Virtual (Zoom)",
            },
          ],
          openVotes: [{ id: expect.any(Number), title: "Open vote", deadline: new Date(monday0900.getTime() + 72 * hour).toISOString() }],
          newDocuments: [
            { id: expect.any(Number), name: "Q2 accounts.pdf", createdAt: new Date(monday0900.getTime() - 24 * hour).toISOString() },
          ],
        },
      ],
    });
    expect(rows.some((row) => row.userId === off.id)).toBe(false);
  });

  it("sends nothing outside its slot (before 08:00 on Monday, or more than 12 hours after)", async () => {
    await ctx.db.delete(mailOutbox);
    const start = ctx.clock.now();
    try {
      ctx.clock.set("2026-06-08T07:59:00.000Z");
      expect(await sendWeeklyDigest(ctx.deps)).toBe(0);
      ctx.clock.set("2026-06-01T20:01:00.000Z");
      expect(await sendWeeklyDigest(ctx.deps)).toBe(0);
    } finally {
      ctx.clock.set(start);
    }
    expect(await ctx.db.select().from(mailOutbox)).toEqual([]);
  });
});

describe("the background jobs", () => {
  it("runs reminders, the digest and the outbox on its timer on the injected clock, and stops", async () => {
    await ctx.db.delete(mailOutbox);
    const { founder } = await ctx.board("Timer Co");
    await ctx.db.insert(mailOutbox).values({
      userId: founder.id,
      toAddress: founder.email,
      message: { type: "notification", kind: "memberAdded", title: "t", body: null, link: null },
    });
    const jobs = startBackgroundJobs(ctx.deps, { intervalMs: 20 });
    try {
      await expect
        .poll(async () => (await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, founder.id)))[0]?.status, { timeout: 5000 })
        .toBe("not_sent");
    } finally {
      await jobs.stop();
    }
  });
});
