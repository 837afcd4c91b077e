import { and, eq } from "drizzle-orm";
import { documents, platformServices, resolutions } from "../../db/schema";
import { agendaFixtures, aiBase } from "../../testing/agenda-fixtures";
import { completion, useAiChatMock } from "../../testing/ai-chat-mock";
import { addMember } from "../../testing/factories";
import { useTestContext } from "../../testing/test-context";

// Without an AI service the agenda is the standard board agenda, and no AI is asked.
const day = 24 * 60 * 60 * 1000;

const seen = useAiChatMock([aiBase], () => completion("{}"));

const ctx = useTestContext({ ai: { model: "test-model", timeoutMs: 300 } });
afterEach(async () => {
  await ctx.db.delete(platformServices);
});

const { generateAgenda, boardWithMeeting, storeAiService } = agendaFixtures(ctx);

describe("POST /api/meetings/:id/generate-agenda without an AI service", () => {
  it("builds the standard board agenda from the company's data, with source template", async () => {
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.body.source).toBe("template");
    const titles = response.body.items.map((item: { title: string }) => item.title);
    expect(titles).toEqual([
      "Call to order and quorum",
      "Minutes of the last meeting",
      "Reports",
      "Resolution: Approve the 2026 budget",
      "Resolution: Appoint Jane Doe as CFO",
      "Any other business",
      "Close of meeting",
    ]);
    const byTitle = Object.fromEntries(
      response.body.items.map((item: { title: string; description: string }) => [item.title, item.description]),
    );
    expect(byTitle["Minutes of the last meeting"]).toContain('"Spring Board Meeting"');
    expect(byTitle["Reports"]).toContain("Q2 management accounts.pdf");
    for (const item of response.body.items) {
      expect(item.duration).toBeGreaterThanOrEqual(1);
      expect(item.duration).toBeLessThanOrEqual(120);
    }
    expect(seen).toHaveLength(0);
  });

  it("treats a disabled service as none, and keeps to 12 items with many pending resolutions", async () => {
    await storeAiService({ isEnabled: false });
    const { founder, company, meetingId } = await boardWithMeeting();
    const deadline = new Date(ctx.clock.now().getTime() + 5 * day);
    await ctx.db.insert(resolutions).values(
      Array.from({ length: 10 }, (_, i) => ({
        companyId: company.id,
        title: `Motion ${i + 1}`,
        description: "x",
        type: "Ordinary" as const,
        deadline,
      })),
    );
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.body.source).toBe("template");
    expect(response.body.items).toHaveLength(12);
    const last = response.body.items.at(-3);
    expect(last.title).toBe("Further pending resolutions");
    expect(last.description).toContain('"Motion 10"');
    expect(seen).toHaveLength(0);
  });

  it("forbids observers (403)", async () => {
    const { company, meetingId } = await boardWithMeeting();
    const observer = await ctx.signUp();
    await addMember(ctx.db, company.id, observer.id, "observer");
    const response = await generateAgenda(observer, meetingId);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: "Observers cannot schedule meetings" });
  });

  it("is 404 for a document that is no meeting", async () => {
    const { founder, company } = await boardWithMeeting();
    const [file] = await ctx.db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.companyId, company.id), eq(documents.category, "Financial")));
    const response = await generateAgenda(founder, file!.id);
    expect(response.status).toBe(404);
  });
});
