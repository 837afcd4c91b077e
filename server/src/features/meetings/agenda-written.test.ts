import { eq } from "drizzle-orm";
import request from "supertest";
import type { AgendaItem, GeneratedAgenda } from "../../../../shared/meetings";
import { meetings, platformServices } from "../../db/schema";
import { agendaFixtures, aiBase } from "../../testing/agenda-fixtures";
import { completion, useAiChatMock } from "../../testing/ai-chat-mock";
import { scheduleMeeting } from "../../testing/factories";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { decideWrittenResolution, insertWrittenResolution } from "../../testing/written-rows";

/**
 * The minute book in the agenda draft: the next meeting's draft notes the written resolutions passed since the
 * company's last meeting (title and effective date), and gives each one referred to a meeting an item of its own.
 * Both drafts, the template's and the AI's (faked at the HTTP level).
 */
let aiItems: AgendaItem[] = [];
const seen = useAiChatMock([aiBase], () => completion(JSON.stringify({ items: aiItems })));
const ctx = useTestContext({ ai: { model: "test-model", timeoutMs: 2000 } });
const { storeAiService } = agendaFixtures(ctx);
afterEach(async () => {
  await ctx.db.delete(platformServices);
});

async function generate(user: SignedUp, meetingId: number): Promise<GeneratedAgenda> {
  const response = await request(ctx.app).post(`/api/meetings/${meetingId}/generate-agenda`).set("Authorization", user.bearer);
  expect(response.status).toBe(200);
  return response.body as GeneratedAgenda;
}

const passedTitle = "Written resolutions passed since the last meeting";

/**
 * A board whose May meeting was on 3 June and whose next is on 20 June, with written resolutions decided around them
 * (and a cancelled meeting on 8 June, which is no meeting to count from).
 */
async function boardWithWritten(name: string) {
  const { founder, company } = await ctx.board(name);
  const may = await scheduleMeeting(ctx.app, founder, new Date("2026-06-03T10:00:00.000Z"), { title: "May board" });
  const cancelled = await scheduleMeeting(ctx.app, founder, new Date("2026-06-08T10:00:00.000Z"), { title: "Called off" });
  await ctx.db.update(meetings).set({ status: "cancelled" }).where(eq(meetings.documentId, cancelled));
  const june = await scheduleMeeting(ctx.app, founder, new Date("2026-06-20T10:00:00.000Z"), { title: "June board" });
  const written = async (title: string, outcome: "approved" | "rejected" | "referred" | null, effective?: string) => {
    const id = await insertWrittenResolution(ctx.db, {
      companyId: company.id,
      createdBy: founder.id,
      lapsesAt: new Date("2026-07-30T00:00:00.000Z"),
      title,
    });
    if (outcome) await decideWrittenResolution(ctx.db, id, outcome, new Date(effective!));
    return id;
  };
  await written("Open a bank account", "approved", "2026-06-02T12:00:00.000Z");
  await written("Appoint the auditors", "approved", "2026-06-10T08:30:00.000Z");
  await written("Adopt the share option plan", "approved", "2026-06-05T16:00:00.000Z");
  await written("Buy a company car", "rejected", "2026-06-06T10:00:00.000Z");
  await written("Move the registered office", "referred", "2026-06-07T10:00:00.000Z");
  await written("Still being signed", null);
  await written("Too late for June", "approved", "2026-06-21T10:00:00.000Z");
  // Passed exactly as the May meeting started: already before it.
  await written("At the May start", "approved", "2026-06-03T10:00:00.000Z");
  // An online vote decided in the window is not a written resolution.
  const fixtures = resolutionFixtures(ctx);
  const vote = await fixtures.created(founder, { title: "Voted online" });
  await fixtures.vote(founder, vote, "yes");
  return { founder, company, may, june };
}

describe("written resolutions in the next meeting's agenda draft", () => {
  it("the template notes those passed since the last meeting, after its minutes, and gives a referred one its own item", async () => {
    const { founder, june } = await boardWithWritten("Template Co");
    await boardWithWritten("Other Co");

    const agenda = await generate(founder, june);
    expect(agenda.source).toBe("template");
    const titles = agenda.items.map((item) => item.title);
    const minutesAt = titles.indexOf("Minutes of the last meeting");
    expect(titles.slice(minutesAt + 1, minutesAt + 3)).toEqual([passedTitle, "Referred written resolution: Move the registered office"]);
    expect(agenda.items[minutesAt + 1]!.description).toBe(
      [
        "To note, as passed by the directors in writing:",
        "- Adopt the share option plan — effective 5 Jun 2026",
        "- Appoint the auditors — effective 10 Jun 2026",
      ].join("\n"),
    );
    expect(agenda.items[minutesAt + 2]!.description).toContain('"Move the registered office" (referred 7 Jun 2026)');
    expect(agenda.items.length).toBeLessThanOrEqual(12);
  });

  it("the first meeting's draft counts from the beginning: the May meeting notes what passed before it, and nothing referred after it", async () => {
    const { founder, may } = await boardWithWritten("First Co");
    const agenda = await generate(founder, may);
    const noted = agenda.items.find((item) => item.title === passedTitle);
    expect(noted?.description).toBe(
      [
        "To note, as passed by the directors in writing:",
        "- Open a bank account — effective 2 Jun 2026",
        "- At the May start — effective 3 Jun 2026",
      ].join("\n"),
    );
    expect(agenda.items.filter((item) => item.title.startsWith("Referred written resolution"))).toEqual([]);
  });

  it("has no such item when nothing was passed or referred in writing", async () => {
    const { founder } = await ctx.board("Quiet Co");
    const meetingId = await scheduleMeeting(ctx.app, founder, new Date("2026-06-20T10:00:00.000Z"));
    const agenda = await generate(founder, meetingId);
    expect(agenda.items.some((item) => item.title === passedTitle || item.title.startsWith("Referred"))).toBe(false);
  });

  it("the AI's draft gets the same items after its minutes item, in place of any of its own by those names, and still at most 12", async () => {
    const { founder, june } = await boardWithWritten("AI Co");
    await storeAiService();
    const item = (title: string) => ({ title, duration: 10, description: `${title}.` });
    aiItems = [
      item("Call to order"),
      item("Approve the minutes"),
      item(passedTitle),
      ...Array.from({ length: 8 }, (_, index) => item(`Topic ${index + 1}`)),
      item("Close"),
    ];

    const agenda = await generate(founder, june);
    expect(agenda.source).toBe("ai");
    expect(agenda.items.map((entry) => entry.title)).toEqual([
      "Call to order",
      "Approve the minutes",
      passedTitle,
      "Referred written resolution: Move the registered office",
      ...Array.from({ length: 7 }, (_, index) => `Topic ${index + 1}`),
      "Close",
    ]);
    expect(agenda.items[2]!.description).toContain("- Appoint the auditors — effective 10 Jun 2026");
    const prompt = seen[0]!.body.messages.map((message) => message.content).join("\n");
    expect(prompt).toContain(`- ${passedTitle}\n- Referred written resolution: Move the registered office`);
    expect(prompt).toContain("Give 3 to 10 items");
  });
});
