import { and, eq } from "drizzle-orm";
import { http, HttpResponse, delay } from "msw";
import { setupServer } from "msw/node";
import request from "supertest";
import { createApp } from "../../app";
import { documents, platformServices, resolutions } from "../../db/schema";
import { HttpError } from "../../http/errors";
import { AiServiceError, completeChat } from "../../integrations/ai-chat";
import { encryptSecret } from "../../integrations/secrets";
import { addMember, meetingContent } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";

/**
 * OpenAI is mocked at the HTTP level, so the real `openai` SDK builds and sends the request.
 * The stored "OpenAI" platform service points the client at https://ai.test/v1 (any OpenAI-compatible server).
 */
const aiBase = "https://ai.test/v1";
const envBase = "https://env-ai.test/v1";
const storedKey = "sk-stored-0123456789abcdef";
const aiTimeoutMs = 300;

interface SeenRequest {
  url: string;
  authorization: string | null;
  body: { model: string; messages: { role: string; content: string }[] };
}
const seen: SeenRequest[] = [];
let reply: () => Promise<Response> | Response = () => completion("{}");

function completion(content: string) {
  return HttpResponse.json({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_780_000_000,
    model: "test-model",
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  });
}

const handler = async ({ request: incoming }: { request: Request }) => {
  seen.push({
    url: incoming.url,
    authorization: incoming.headers.get("authorization"),
    body: (await incoming.json()) as SeenRequest["body"],
  });
  return reply();
};
const mockAi = setupServer(http.post(`${aiBase}/chat/completions`, handler), http.post(`${envBase}/chat/completions`, handler));

const ctx = useTestContext({ ai: { model: "test-model", timeoutMs: aiTimeoutMs } });
beforeAll(async () => {
  // supertest's own requests to the in-process app pass through; anything else unmocked fails the test.
  mockAi.listen({
    onUnhandledRequest: (req, print) => {
      if (new URL(req.url).hostname !== "127.0.0.1") print.error();
    },
  });
});
afterEach(async () => {
  mockAi.resetHandlers();
  seen.length = 0;
  await ctx.db.delete(platformServices);
});
afterAll(async () => {
  mockAi.close();
});

const api = () => request(ctx.app);
const generateAgenda = (user: SignedUp, meetingId: number, app = ctx.app) =>
  request(app).post(`/api/meetings/${meetingId}/generate-agenda`).set("Authorization", user.bearer);
const day = 24 * 60 * 60 * 1000;

/** The stored "OpenAI" service; `keySecret` encrypts its key under another APP_SECRET than the app's. */
async function configureAiService(fields: { isEnabled?: boolean; url?: string | null; keySecret?: string } = {}) {
  await ctx.db.insert(platformServices).values({
    serviceName: "OpenAI",
    serviceKeyEncrypted: encryptSecret(storedKey, fields.keySecret ?? ctx.deps.appSecret),
    serviceKeyPreview: storedKey.slice(0, 8),
    serviceUrl: fields.url === undefined ? aiBase : fields.url,
    isEnabled: fields.isEnabled ?? true,
  });
}

/** A company with pending resolutions, a recent file and a meeting to draft an agenda for. */
async function boardWithMeeting() {
  const { founder, company } = await ctx.board("Orbital Widgets", { firstName: "Fay", lastName: "Founder" });
  const now = ctx.clock.now().getTime();
  await ctx.db.insert(resolutions).values([
    {
      companyId: company.id,
      title: "Approve the 2026 budget",
      description: "Budget",
      type: "Ordinary",
      deadline: new Date(now + 7 * day),
      createdBy: founder.id,
    },
    {
      companyId: company.id,
      title: "Appoint Jane Doe as CFO",
      description: "Hire",
      type: "Special",
      deadline: new Date(now + 9 * day),
      createdBy: founder.id,
    },
    {
      companyId: company.id,
      title: "Long expired motion",
      description: "Old",
      type: "Ordinary",
      deadline: new Date(now - day),
      createdBy: founder.id,
    },
    {
      companyId: company.id,
      title: "Already approved motion",
      description: "Done",
      type: "Ordinary",
      status: "approved",
      deadline: new Date(now + day),
      createdBy: founder.id,
    },
  ]);
  await ctx.db.insert(documents).values({
    companyId: company.id,
    name: "Q2 management accounts.pdf",
    fileType: "application/pdf",
    fileSize: 1024,
    category: "Financial",
    uploadedBy: founder.id,
  });
  const previous = await scheduleMeeting(founder, "Spring Board Meeting", new Date(now - 30 * day));
  const meeting = await scheduleMeeting(founder, "Summer Board Meeting", new Date(now + 14 * day));
  return { founder, company, meetingId: meeting, previousId: previous };
}

async function scheduleMeeting(user: SignedUp, title: string, start: Date): Promise<number> {
  const content = meetingContent(start, { title, location: "Board room" });
  const response = await api()
    .post("/api/documents")
    .set("Authorization", user.bearer)
    .send({ category: "Meeting", content: JSON.stringify(content) });
  if (response.status !== 201) throw new Error(`schedule failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id;
}

const validItems = [
  { title: "Call to order", duration: 5, description: "Open and confirm quorum." },
  { title: "Approve the 2026 budget", duration: 30, description: "Discuss and vote." },
  { title: "Appoint Jane Doe as CFO", duration: "20", description: "Interview summary." },
  { title: "Close", duration: 5, description: "" },
];

describe("POST /api/meetings/:id/generate-agenda with an AI service", () => {
  it("sends the meeting, company profile, pending resolutions and recent documents, and answers the AI's items", async () => {
    await configureAiService();
    reply = () => completion(JSON.stringify({ items: validItems }));
    const { founder, company, meetingId } = await boardWithMeeting();

    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      source: "ai",
      items: [
        { title: "Call to order", duration: 5, description: "Open and confirm quorum." },
        { title: "Approve the 2026 budget", duration: 30, description: "Discuss and vote." },
        { title: "Appoint Jane Doe as CFO", duration: 20, description: "Interview summary." },
        { title: "Close", duration: 5, description: "" },
      ],
    });

    expect(seen).toHaveLength(1);
    const sent = seen[0]!;
    expect(sent.url).toBe(`${aiBase}/chat/completions`);
    expect(sent.authorization).toBe(`Bearer ${storedKey}`);
    expect(sent.body.model).toBe("test-model");
    const prompt = sent.body.messages.map((message) => message.content).join("\n");
    expect(prompt).toContain("Summer Board Meeting");
    expect(prompt).toContain(new Date(ctx.clock.now().getTime() + 14 * day).toISOString());
    expect(prompt).toContain(company.name);
    expect(prompt).toContain("Industry: Technology");
    expect(prompt).toContain("Approve the 2026 budget");
    expect(prompt).toContain("Appoint Jane Doe as CFO");
    expect(prompt).not.toContain("Long expired motion");
    expect(prompt).not.toContain("Already approved motion");
    expect(prompt).toContain("Q2 management accounts.pdf");
    expect(prompt).toContain("Previous meeting: Spring Board Meeting");
    expect(prompt).toMatch(/JSON/);
    // The key never reaches the logs.
    expect(ctx.logs.join("")).not.toContain(storedKey);
  });

  it("works on a draft made for the purpose", async () => {
    await configureAiService();
    reply = () => completion(`\`\`\`json\n${JSON.stringify(validItems)}\n\`\`\``);
    const { founder } = await boardWithMeeting();
    const draft = await api()
      .post("/api/new-meeting")
      .set("Authorization", founder.bearer)
      .send({ title: "Draft agenda please", date: new Date(ctx.clock.now().getTime() + day).toISOString(), location: "Virtual (Zoom)" });
    const response = await generateAgenda(founder, draft.body.id);
    expect(response.status).toBe(200);
    expect(response.body.source).toBe("ai");
    expect(response.body.items).toHaveLength(4);
    expect(seen[0]!.body.messages.at(-1)!.content).toContain("Meeting title: Draft agenda please");
  });

  it.each([
    ["an answer that is not JSON", () => completion("Here is your agenda: 1. Call to order")],
    ["too few items", () => completion(JSON.stringify({ items: validItems.slice(0, 2) }))],
    [
      "too many items",
      () =>
        completion(JSON.stringify({ items: Array.from({ length: 13 }, (_, i) => ({ title: `Item ${i}`, duration: 5, description: "" })) })),
    ],
    [
      "a duration out of range",
      () => completion(JSON.stringify({ items: [...validItems, { title: "Marathon", duration: 240, description: "" }] })),
    ],
    ["an item without a title", () => completion(JSON.stringify({ items: [...validItems, { duration: 5, description: "?" }] }))],
    ["an empty answer", () => completion("")],
  ])("answers 502 for %s", async (_label, makeReply) => {
    await configureAiService();
    reply = makeReply;
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ message: "The AI service answered with something that is not a valid agenda" });
    expect(seen).toHaveLength(1);
  });

  it("answers 502 when the AI service fails with a 500 (no retry)", async () => {
    await configureAiService();
    reply = () => HttpResponse.json({ error: { message: "The server had an error", type: "server_error" } }, { status: 500 });
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(502);
    // One sentence whatever went wrong upstream: neither its status nor its body; the log has the status.
    expect(response.body).toEqual({ message: "The AI service did not answer as expected" });
    expect(seen).toHaveLength(1);
    expect(ctx.logs.some((line) => line.includes("agenda generation failed") && line.includes('"status":500'))).toBe(true);
    // The log has the failure's kind and status, never what the upstream's body said.
    expect(ctx.logs.some((line) => line.includes("The server had an error"))).toBe(false);
  });

  it("answers 502 when the AI service does not answer in time", async () => {
    await configureAiService();
    reply = async () => {
      await delay(aiTimeoutMs * 10);
      return completion(JSON.stringify({ items: validItems }));
    };
    const { founder, meetingId } = await boardWithMeeting();
    const started = Date.now();
    const response = await generateAgenda(founder, meetingId);
    const elapsed = Date.now() - started;
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ message: "The AI service did not answer as expected" });
    expect(elapsed).toBeLessThan(aiTimeoutMs * 8);
    expect(seen).toHaveLength(1);
  });

  it("answers the same 502 when the AI service cannot be reached: nothing tells which addresses answer", async () => {
    await configureAiService();
    reply = () => HttpResponse.error();
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ message: "The AI service did not answer as expected" });
  });

  it("answers 502 when the stored key was written under another APP_SECRET, without calling the AI", async () => {
    await configureAiService({ keySecret: "another-app-secret-of-at-least-32-chars" });
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      message: "The AI service is configured but its key cannot be read; ask a platform administrator to enter it again.",
    });
    expect(seen).toHaveLength(0);
  });

  it("reaches the AI through an adapter that throws its own error, never an HTTP one, and never shows the key", async () => {
    reply = () => HttpResponse.json({ error: { message: `bad key ${storedKey}`, type: "invalid_request_error" } }, { status: 401 });
    const config = { apiKey: storedKey, baseURL: aiBase, model: "test-model", timeoutMs: aiTimeoutMs, outbound: ctx.deps.outbound };
    const failure = await completeChat(config, [{ role: "user", content: "Hello" }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AiServiceError);
    expect(failure).not.toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ failure: "error-status", status: 401 });
    expect((failure as Error).message).not.toContain(storedKey);

    reply = () => completion("Plain words");
    expect(await completeChat(config, [{ role: "user", content: "Hello" }])).toBe("Plain words");
    expect(seen.map((request) => request.body.messages)).toEqual([
      [{ role: "user", content: "Hello" }],
      [{ role: "user", content: "Hello" }],
    ]);
  });

  it("uses OPENAI_API_KEY and OPENAI_BASE_URL when no service is stored", async () => {
    reply = () => completion(JSON.stringify({ items: validItems }));
    const envApp = createApp({
      ...ctx.deps,
      ai: { model: "env-model", apiKeyFromEnv: "sk-from-env", baseUrlFromEnv: envBase, timeoutMs: aiTimeoutMs },
    });
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId, envApp);
    expect(response.status).toBe(200);
    expect(response.body.source).toBe("ai");
    expect(seen[0]).toMatchObject({ url: `${envBase}/chat/completions`, authorization: "Bearer sk-from-env" });
    expect(seen[0]!.body.model).toBe("env-model");

    // A stored, enabled service wins over the environment.
    await configureAiService();
    await generateAgenda(founder, meetingId, envApp);
    expect(seen[1]).toMatchObject({ url: `${aiBase}/chat/completions`, authorization: `Bearer ${storedKey}` });
  });
});

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
    await configureAiService({ isEnabled: false });
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
