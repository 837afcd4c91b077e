import { eq } from "drizzle-orm";
import { http, HttpResponse, delay } from "msw";
import { setupServer } from "msw/node";
import type { MinutesDraft } from "../../../../shared/meeting-record";
import { meetingMinutes, platformServices } from "../../db/schema";
import { encryptSecret } from "../../integrations/secrets";
import { completion } from "../../testing/ai-chat-mock";
import { minutesFixtures, minutesTestStart } from "../../testing/minutes-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { missingFact, type Fact } from "./minutes-facts";

// The AI is faked at the HTTP level, so the real `openai` SDK builds and sends the request.
const aiBase = "https://ai.test/v1";
const storedKey = "sk-minutes-0123456789abcdef";
const aiTimeoutMs = 300;

interface SeenRequest {
  body: { model: string; messages: { role: string; content: string }[] };
}
const seen: SeenRequest[] = [];
let reply: () => Promise<Response> | Response = () => completion("");

const mockAi = setupServer(
  http.post(`${aiBase}/chat/completions`, async ({ request: incoming }) => {
    seen.push({ body: (await incoming.json()) as SeenRequest["body"] });
    return reply();
  }),
);

const ctx = useTestContext({ ai: { model: "test-model", timeoutMs: aiTimeoutMs } });
beforeAll(() => {
  mockAi.listen({
    onUnhandledRequest: (req, print) => {
      if (new URL(req.url).hostname !== "127.0.0.1") print.error();
    },
  });
});
afterEach(async () => {
  mockAi.resetHandlers();
  seen.length = 0;
  ctx.clock.set(minutesTestStart);
  await ctx.db.delete(platformServices);
});
afterAll(() => mockAi.close());

const { draft, knownRecord } = minutesFixtures(ctx);

async function configureAi(serviceKeyEncrypted = encryptSecret(storedKey, ctx.deps.appSecret)) {
  await ctx.db.insert(platformServices).values({
    serviceName: "OpenAI",
    serviceKeyEncrypted,
    serviceKeyPreview: storedKey.slice(0, 8),
    serviceUrl: aiBase,
    isEnabled: true,
  });
}

let record: Awaited<ReturnType<typeof knownRecord>>;
let plainDraft: string;
let companies = 0;

/** Asks for an improved draft with the AI answering `answer`; answers the draft and the text stored. */
async function improveWith(answer: string | (() => Promise<Response> | Response), user: SignedUp = record.cal) {
  reply = typeof answer === "string" ? () => completion(answer) : answer;
  const response = await draft(user, record.meetingId, { improve: true });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const [stored] = await ctx.db
    .select({ text: meetingMinutes.text })
    .from(meetingMinutes)
    .where(eq(meetingMinutes.meetingId, record.meetingId));
  return { body: response.body as MinutesDraft, stored: stored!.text };
}

const refusedFor = (fact: string) => ({ outcome: "refused", message: `The AI's wording was not used: it changed or dropped “${fact}”` });

describe("the AI may reword the minutes, never change a fact", () => {
  beforeEach(async () => {
    companies += 1;
    record = await knownRecord(`Wording Ltd ${companies}`);
    plainDraft = (await draft(record.cal, record.meetingId)).body.text as string;
  });

  it("keeps an answer that only rewords, and sends the draft with the facts to keep", async () => {
    await configureAi();
    const reworded = plainDraft
      .replace("## Attendance", "## Those in attendance")
      .replace("## Action items", "## Actions agreed")
      .replace("- Presenter: Ann Adams", "- Presented by Ann Adams")
      .replace("- Papers: Budget 2026.txt", "- Papers tabled: Budget 2026.txt")
      .replace("The time the meeting closed was not recorded.", "No time of close was recorded.");
    const { body, stored } = await improveWith(`\`\`\`markdown\n${reworded}\`\`\``);
    expect(body.improvement).toEqual({ outcome: "kept", message: null });
    expect(body.text).toBe(reworded);
    expect(stored).toBe(reworded);

    expect(seen).toHaveLength(1);
    const [system, user] = seen[0]!.body.messages;
    expect(system!.role).toBe("system");
    expect(system!.content).toContain("Improve the wording and flow only");
    expect(user!.content).toContain(plainDraft);
    expect(user!.content).toContain("- Apologies: Cal Clark\n");
    expect(user!.content).toContain("- Approve the 2026 budget: 3 yes\n");
    expect(user!.content).toContain("- Send the budget to the bank: 24 Jun 2026\n");
  });

  it("refuses an answer that changes a tally, naming it, and keeps the draft", async () => {
    await configureAi();
    const { body, stored } = await improveWith(plainDraft.replace("show of hands: 3 yes, 1 no", "show of hands: 4 yes, 1 no"));
    expect(body.improvement).toEqual(refusedFor("Approve the 2026 budget: 3 yes"));
    expect(body.text).toBe(plainDraft);
    expect(stored).toBe(plainDraft);
  });

  it("refuses an answer that drops an attendee, or moves one to another status", async () => {
    await configureAi();
    const dropped = await improveWith(plainDraft.replace("- Absent: Dee Davis", "- Absent: none"));
    expect(dropped.body.improvement).toEqual(refusedFor("Absent: Dee Davis"));
    expect(dropped.stored).toBe(plainDraft);

    const moved = await improveWith(
      plainDraft
        .replace("- Present: Bob Brown, Fay Founder, Obi Observer", "- Present: Bob Brown, Cal Clark, Fay Founder, Obi Observer")
        .replace("- Apologies: Cal Clark", "- Apologies: none"),
    );
    expect(moved.body.improvement).toEqual(refusedFor("Apologies: Cal Clark"));

    const byVideo = await improveWith(plainDraft.replace("- Present by video: Ann Adams", "- Present: Ann Adams"));
    expect(byVideo.body.improvement).toEqual(refusedFor("Present by video: Ann Adams"));
  });

  it("refuses an answer that changes a date, a time, an outcome or an item's title", async () => {
    await configureAi();
    expect((await improveWith(plainDraft.replace("- Date: 10 Jun 2026", "- Date: 11 Jun 2026"))).body.improvement).toEqual(
      refusedFor("10 Jun 2026"),
    );
    expect((await improveWith(plainDraft.replaceAll("12:00 UTC", "12:30 UTC"))).body.improvement).toEqual(
      refusedFor("scheduled to end at 12:00 UTC"),
    );
    // The schedule may not be passed off as the time of close.
    expect(
      (await improveWith(plainDraft.replace("- Closed: not recorded (scheduled to end at 12:00 UTC)", "- Ended: 12:00 UTC"))).body
        .improvement,
    ).toEqual(refusedFor("scheduled to end at 12:00 UTC"));
    expect((await improveWith(plainDraft.replace("Rejected by online", "Approved by online"))).body.improvement).toEqual(
      refusedFor("Open a second bank account: Rejected"),
    );
    expect((await improveWith(plainDraft.replace("Approved at this meeting", "Approved at a later meeting"))).body.improvement).toEqual(
      refusedFor("Approve the 2026 budget: at this meeting by show of hands"),
    );
    expect((await improveWith(plainDraft.replace("### 2. Hiring", "### 2. Recruitment"))).body.improvement).toEqual(refusedFor("Hiring"));
    // What an item was for is the record's: a decision may not become a matter for noting.
    expect((await improveWith(plainDraft.replace("Finance (for decision)", "Finance (for noting)"))).body.improvement).toEqual(
      refusedFor("Finance: for decision"),
    );
    const resolved = "That the budget for 2026 be approved as presented.";
    expect((await improveWith(plainDraft.replace(resolved, "The board considered the budget for 2026."))).body.improvement).toEqual(
      refusedFor(resolved),
    );
    expect((await improveWith(plainDraft.replace("Head office, London", "London"))).body.improvement).toEqual(
      refusedFor("Head office, London"),
    );
    expect((await improveWith(plainDraft.replace("due 1 Jul 2026", "due 2 Jul 2026"))).body.improvement).toEqual(
      refusedFor("Draft the CFO job description: 1 Jul 2026"),
    );
  });

  it("refuses facts moved to another's place: two resolutions' tallies, two action items' due dates or owners swapped", async () => {
    await configureAi();
    const budget = "Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain";
    const bank = "Rejected by online vote on 10 Jun 2026: 1 yes, 2 no, 1 abstain";
    const tallies = plainDraft
      .replace(budget, "Approved at this meeting by show of hands: 1 yes, 2 no, 1 abstain")
      .replace(bank, "Rejected by online vote on 10 Jun 2026: 3 yes, 1 no, 0 abstain");
    // Each tally is still in the text, only under the other resolution.
    for (const words of ["3 yes", "1 no", "0 abstain", "1 yes", "2 no", "1 abstain"]) expect(tallies).toContain(words);
    const swappedTallies = await improveWith(tallies);
    expect(swappedTallies.body.improvement).toEqual(refusedFor("Approve the 2026 budget: 3 yes"));
    expect(swappedTallies.stored).toBe(plainDraft);

    const send = "- Send the budget to the bank: Ann Adams, due 24 Jun 2026";
    const cfo = "- Draft the CFO job description: Bob Brown, due 1 Jul 2026";
    const dates = plainDraft
      .replace(send, "- Send the budget to the bank: Ann Adams, due 1 Jul 2026")
      .replace(cfo, "- Draft the CFO job description: Bob Brown, due 24 Jun 2026");
    expect((await improveWith(dates)).body.improvement).toEqual(refusedFor("Send the budget to the bank: 24 Jun 2026"));
    const owners = plainDraft
      .replace(send, "- Send the budget to the bank: Bob Brown, due 24 Jun 2026")
      .replace(cfo, "- Draft the CFO job description: Ann Adams, due 1 Jul 2026");
    expect((await improveWith(owners)).body.improvement).toEqual(refusedFor("Send the budget to the bank: Ann Adams"));
  });

  it("keeps a rewording that states each fact in its place in other words and layout", async () => {
    await configureAi();
    const reworded = plainDraft
      .replace(
        "Approved at this meeting by show of hands: 3 yes, 1 no, 0 abstain",
        "The board Approved the resolution at this meeting by show of hands, with 3 yes, 1 no and 0 abstain.",
      )
      .replace(
        "- Send the budget to the bank: Ann Adams, due 24 Jun 2026",
        "- Send the budget to the bank\n  - Owner: Ann Adams\n  - Due: 24 Jun 2026",
      )
      .replace("- Draft the CFO job description: Bob Brown, due 1 Jul 2026", "Bob Brown will Draft the CFO job description by 1 Jul 2026.");
    const { body, stored } = await improveWith(reworded);
    expect(body.improvement).toEqual({ outcome: "kept", message: null });
    expect(stored).toBe(reworded);
  });

  it("without an AI configured the draft stands: unavailable, never an error", async () => {
    const { body, stored } = await improveWith("never asked");
    expect(body.improvement).toEqual({
      outcome: "unavailable",
      message: "No AI service is configured: the minutes are as drafted from the record.",
    });
    expect(body.text).toBe(plainDraft);
    expect(stored).toBe(plainDraft);
    expect(seen).toHaveLength(0);
  });

  it("an AI that errs or is silent leaves the draft: failed, never a 5xx, and no text in the logs", async () => {
    await configureAi();
    const erred = await improveWith(() =>
      HttpResponse.json({ error: { message: "Upstream says the cluster is down", type: "server_error" } }, { status: 500 }),
    );
    expect(erred.body.improvement).toEqual({
      outcome: "failed",
      message: "The AI service did not answer as expected; the minutes are as drafted from the record.",
    });
    expect(erred.stored).toBe(plainDraft);

    const silent = await improveWith(async () => {
      await delay(aiTimeoutMs * 10);
      return completion(plainDraft);
    });
    expect(silent.body.improvement).toEqual({
      outcome: "failed",
      message: "The AI service did not answer as expected; the minutes are as drafted from the record.",
    });
    const empty = await improveWith("");
    expect(empty.body.improvement?.outcome).toBe("failed");
    expect(ctx.logs.some((line) => line.includes("minutes wording failed") && line.includes('"status":500'))).toBe(true);
    // Nor the upstream's body: the log has the failure's kind and status only.
    expect(ctx.logs.some((line) => line.includes("Gus Guest") || line.includes(storedKey) || line.includes("cluster is down"))).toBe(false);
  });

  it("a key that cannot be read leaves the draft, with the words agenda drafts use for it", async () => {
    await configureAi(encryptSecret(storedKey, "another-app-secret-of-at-least-32-chars"));
    const { body, stored } = await improveWith("never asked");
    expect(body.improvement).toEqual({
      outcome: "failed",
      message:
        "The AI service is configured but its key cannot be read; ask a platform administrator to enter it again. " +
        "The minutes are as drafted from the record.",
    });
    expect(stored).toBe(plainDraft);
    expect(seen).toHaveLength(0);
  });
});

describe("the fact check", () => {
  const facts: Fact[] = [
    { kind: "text", text: "1 no" },
    { kind: "text", text: "1 no" },
    { kind: "attendance", name: "Ann Adams", label: "Present" },
  ];

  it("counts a fact as often as the record has it, and never inside a longer number or word", () => {
    const both = "Approved: 3 yes, 1 no\n\nRejected: 2 yes, 1 no\n\n- Present: Ann Adams";
    expect(missingFact(both, facts)).toBeNull();
    expect(missingFact(both.replace("2 yes, 1 no", "2 yes, 11 no"), facts)).toEqual(facts[0]);
    expect(missingFact("1 no 1 no\n\n- Present by video: Ann Adams", facts)).toEqual(facts[2]);
    expect(missingFact("1 no 1 no\n\nPresent: Ann Adamson", facts)).toEqual(facts[2]);
    expect(missingFact("1 no 1 no\n\nThose present were Ann Adams and others", facts)).toBeNull();
  });

  it("reads a place as a heading's section, or a line with its continuation", () => {
    const placed: Fact[] = [
      { kind: "placed", place: "Budget", text: "3 yes" },
      { kind: "placed", place: "Hire Jo", text: "due 5 Jul" },
    ];
    const sections = "## Budget\n\nThe motion.\n\nApproved: 3 yes\n\n## Bank\n\n- Hire Jo\n  - due 5 Jul\n";
    expect(missingFact(sections, placed)).toBeNull();
    // Past the next heading is another's section; past a blank line or the next item, another's line.
    expect(missingFact("## Budget\n\nThe motion.\n\n## Bank\n\n3 yes\n\n- Hire Jo, due 5 Jul", placed)).toEqual(placed[0]);
    expect(missingFact("# Budget\n3 yes\n\n- Hire Jo\n- Other\n  - due 5 Jul", placed)).toEqual(placed[1]);
    expect(missingFact("# Budget\n3 yes\n\n- Hire Jo\n\ndue 5 Jul", placed)).toEqual(placed[1]);
    // The place's name must be whole: "Hire Jon" is not "Hire Jo".
    expect(missingFact("# Budget\n3 yes\n\n- Hire Jon, due 5 Jul", placed)).toEqual(placed[1]);
  });
});
