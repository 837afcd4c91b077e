import { HttpResponse, delay } from "msw";
import { createApp } from "../../app";
import { platformServices } from "../../db/schema";
import { HttpError } from "../../http/errors";
import { AiServiceError, completeChat } from "../../integrations/ai-chat";
import { agendaFixtures, aiBase, storedAiKey } from "../../testing/agenda-fixtures";
import { completion, useAiChatMock } from "../../testing/ai-chat-mock";
import { useTestContext } from "../../testing/test-context";

/** The stored "OpenAI" platform service points the client at `aiBase`; the environment's, at `envBase`. */
const envBase = "https://env-ai.test/v1";
const aiTimeoutMs = 300;
const day = 24 * 60 * 60 * 1000;

let reply: () => Promise<Response> | Response = () => completion("{}");
const seen = useAiChatMock([aiBase, envBase], () => reply());

const ctx = useTestContext({ ai: { model: "test-model", timeoutMs: aiTimeoutMs } });
afterEach(async () => {
  await ctx.db.delete(platformServices);
});

const { api, generateAgenda, boardWithMeeting, storeAiService } = agendaFixtures(ctx);

const validItems = [
  { title: "Call to order", duration: 5, description: "Open and confirm quorum." },
  { title: "Approve the 2026 budget", duration: 30, description: "Discuss and vote." },
  { title: "Appoint Jane Doe as CFO", duration: "20", description: "Interview summary." },
  { title: "Close", duration: 5, description: "" },
];

describe("POST /api/meetings/:id/generate-agenda with an AI service", () => {
  it("sends the meeting, company profile, pending resolutions and recent documents, and answers the AI's items", async () => {
    await storeAiService();
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
    expect(sent.authorization).toBe(`Bearer ${storedAiKey}`);
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
    expect(ctx.logs.join("")).not.toContain(storedAiKey);
  });

  it("works on a draft made for the purpose", async () => {
    await storeAiService();
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
    await storeAiService();
    reply = makeReply;
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ message: "The AI service answered with something that is not a valid agenda" });
    expect(seen).toHaveLength(1);
  });

  it("answers 502 when the AI service fails with a 500 (no retry)", async () => {
    await storeAiService();
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
    await storeAiService();
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
    await storeAiService();
    reply = () => HttpResponse.error();
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ message: "The AI service did not answer as expected" });
  });

  it("answers 502 when the stored key was written under another APP_SECRET, without calling the AI", async () => {
    await storeAiService({ keySecret: "another-app-secret-of-at-least-32-chars" });
    const { founder, meetingId } = await boardWithMeeting();
    const response = await generateAgenda(founder, meetingId);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      message: "The AI service is configured but its key cannot be read; ask a platform administrator to enter it again.",
    });
    expect(seen).toHaveLength(0);
  });

  it("reaches the AI through an adapter that throws its own error, never an HTTP one, and never shows the key", async () => {
    reply = () => HttpResponse.json({ error: { message: `bad key ${storedAiKey}`, type: "invalid_request_error" } }, { status: 401 });
    const config = { apiKey: storedAiKey, baseURL: aiBase, model: "test-model", timeoutMs: aiTimeoutMs, outbound: ctx.deps.outbound };
    const failure = await completeChat(config, [{ role: "user", content: "Hello" }]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AiServiceError);
    expect(failure).not.toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ failure: "error-status", status: 401 });
    expect((failure as Error).message).not.toContain(storedAiKey);

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
    await storeAiService();
    await generateAgenda(founder, meetingId, envApp);
    expect(seen[1]).toMatchObject({ url: `${aiBase}/chat/completions`, authorization: `Bearer ${storedAiKey}` });
  });
});
