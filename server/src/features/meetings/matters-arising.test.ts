import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import request from "supertest";
import type { GeneratedAgenda } from "../../../../shared/meetings";
import { actionItems, platformServices, resolutions } from "../../db/schema";
import { agendaFixtures, aiBase } from "../../testing/agenda-fixtures";
import { scheduleMeeting } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";

/**
 * Both agenda drafts open with "Matters arising" on the company's open action items, when there are any. The
 * AI is faked at the HTTP level (as in agenda.test.ts); the items are written straight to their table.
 */
const prompts: string[] = [];
let aiItems: { title: string; duration: number; description: string }[] = [];

const mockAi = setupServer(
  http.post(`${aiBase}/chat/completions`, async ({ request }) => {
    const body = (await request.json()) as { messages: { content: string }[] };
    prompts.push(body.messages.map((message) => message.content).join("\n"));
    return HttpResponse.json({
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_780_000_000,
      model: "test-model",
      choices: [
        { index: 0, message: { role: "assistant", content: JSON.stringify({ items: aiItems }), refusal: null }, finish_reason: "stop" },
      ],
    });
  }),
);

const ctx = useTestContext({ ai: { model: "test-model", timeoutMs: 2000 } });
const { storeAiService } = agendaFixtures(ctx);
beforeAll(() =>
  mockAi.listen({
    onUnhandledRequest: (req, print) => {
      if (new URL(req.url).hostname !== "127.0.0.1") print.error();
    },
  }),
);
afterEach(async () => {
  prompts.length = 0;
  await ctx.db.delete(platformServices);
});
afterAll(() => mockAi.close());

const generate = (user: SignedUp, meetingId: number) =>
  request(ctx.app).post(`/api/meetings/${meetingId}/generate-agenda`).set("Authorization", user.bearer);

/** A board whose next meeting is on 20 June, with Ann owning two open items, one done, and another company's. */
async function boardWithItems(name: string) {
  const { founder, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
  const ann = await member("member", { firstName: "Ann", lastName: "Owner" });
  const previous = await scheduleMeeting(ctx.app, founder, new Date("2026-06-03T10:00:00.000Z"), { title: "May board" });
  const meetingId = await scheduleMeeting(ctx.app, founder, new Date("2026-06-20T10:00:00.000Z"), { title: "June board" });
  const item = (title: string, ownerId: number, dueDate: string, status: "open" | "done" = "open") => ({
    companyId: company.id,
    meetingId: previous,
    title,
    ownerId,
    dueDate,
    status,
  });
  return { founder, company, ann, meetingId, previous, item };
}

const expectedDescription = [
  "Follow up on the open action items:",
  "- Send the accounts — Ann Owner, due 5 Jun 2026",
  "- Renew the insurance — Fay Founder, due 12 Jun 2026",
].join("\n");

describe("Matters arising", () => {
  it("opens the template agenda with the company's open action items, soonest due first (never done ones nor another company's)", async () => {
    const { founder, ann, meetingId, item } = await boardWithItems("Template Co");
    const other = await boardWithItems("Other Co");
    await ctx.db
      .insert(actionItems)
      .values([
        item("Renew the insurance", founder.id, "2026-06-12"),
        item("Send the accounts", ann.id, "2026-06-05"),
        item("Already handled", ann.id, "2026-06-04", "done"),
        other.item("Not ours", other.founder.id, "2026-06-04"),
      ]);

    const response = await generate(founder, meetingId);
    expect(response.status).toBe(200);
    const agenda = response.body as GeneratedAgenda;
    expect(agenda.source).toBe("template");
    expect(agenda.items[0]).toEqual({ title: "Matters arising", duration: 10, description: expectedDescription });
    expect(agenda.items.slice(1).map((entry) => entry.title)).not.toContain("Matters arising");
  });

  it("is left out when nothing is open; with many items it names what fits and counts the rest, and the agenda keeps to 12 items", async () => {
    const { founder, company, ann, meetingId, item } = await boardWithItems("Many Co");
    await ctx.db.insert(actionItems).values(item("Already handled", ann.id, "2026-06-04", "done"));
    const none = (await generate(founder, meetingId)).body as GeneratedAgenda;
    expect(none.items[0]!.title).toBe("Call to order and quorum");
    expect(none.items.map((entry) => entry.title)).not.toContain("Matters arising");

    await ctx.db
      .insert(actionItems)
      .values(Array.from({ length: 45 }, (_, index) => item(`${"Long task ".repeat(18)}${index}`, ann.id, "2026-06-05")));
    await ctx.db.insert(resolutions).values(
      Array.from({ length: 10 }, (_, index) => ({
        companyId: company.id,
        title: `Motion ${index}`,
        description: "Decide",
        type: "Ordinary" as const,
        deadline: new Date("2026-06-30T00:00:00.000Z"),
        createdBy: founder.id,
      })),
    );
    const many = (await generate(founder, meetingId)).body as GeneratedAgenda;
    const arising = many.items[0]!;
    expect(arising.title).toBe("Matters arising");
    expect(arising.description.length).toBeLessThanOrEqual(1000);
    const named = arising.description.split("\n").filter((line) => line.startsWith("- Long task"));
    expect(named.length).toBeGreaterThan(0);
    expect(arising.description.split("\n").at(-1)).toBe(`- and ${45 - named.length} more`);
    expect(many.items).toHaveLength(12);
  });

  it("opens the AI's agenda too: the prompt names the items, the AI's own Matters arising is dropped, and 12 items keep the close", async () => {
    await storeAiService();
    const { founder, ann, meetingId, item } = await boardWithItems("AI Co");
    await ctx.db
      .insert(actionItems)
      .values([item("Renew the insurance", founder.id, "2026-06-12"), item("Send the accounts", ann.id, "2026-06-05")]);
    const own = [
      { title: "Call to order", duration: 5, description: "Open." },
      { title: "Matters Arising", duration: 10, description: "The AI's version." },
      { title: "Budget", duration: 30, description: "Discuss." },
      { title: "Close", duration: 5, description: "" },
    ];
    aiItems = own;

    const response = await generate(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      source: "ai",
      items: [{ title: "Matters arising", duration: 10, description: expectedDescription }, own[0], own[2], own[3]],
    });
    expect(prompts[0]).toContain(expectedDescription);
    expect(prompts[0]).toContain("Give 3 to 11 items");

    aiItems = Array.from({ length: 12 }, (_, index) => ({ title: `Item ${index}`, duration: 5, description: "" }));
    const full = await generate(founder, meetingId);
    expect(full.status).toBe(200);
    expect((full.body as GeneratedAgenda).items.map((entry) => entry.title)).toEqual([
      "Matters arising",
      ...aiItems.slice(0, 10).map((entry) => entry.title),
      "Item 11",
    ]);
  });
});
