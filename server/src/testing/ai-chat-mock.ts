import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";

// An OpenAI-compatible chat service mocked at the HTTP level, so the real `openai` SDK builds and sends the request.

/** A request the mocked service received. */
export interface SeenAiRequest {
  url: string;
  authorization: string | null;
  body: { model: string; messages: { role: string; content: string }[] };
}

/** A chat completion answering `content`, as the service sends it. */
export function completion(content: string) {
  return HttpResponse.json({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_780_000_000,
    model: "test-model",
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, finish_reason: "stop", logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  });
}

/**
 * Mocks the chat completions of the services at `bases` for the test file, answering each request with `respond()`.
 * Answers the requests seen, emptied after each test. supertest's own requests to the in-process app pass through;
 * anything else unmocked fails the test.
 */
export function useAiChatMock(bases: readonly string[], respond: () => Promise<Response> | Response): SeenAiRequest[] {
  const seen: SeenAiRequest[] = [];
  const handler = async ({ request: incoming }: { request: Request }) => {
    seen.push({
      url: incoming.url,
      authorization: incoming.headers.get("authorization"),
      body: (await incoming.json()) as SeenAiRequest["body"],
    });
    return respond();
  };
  const mockAi = setupServer(...bases.map((base) => http.post(`${base}/chat/completions`, handler)));
  beforeAll(() => {
    mockAi.listen({
      onUnhandledRequest: (req, print) => {
        if (new URL(req.url).hostname !== "127.0.0.1") print.error();
      },
    });
  });
  afterEach(() => {
    mockAi.resetHandlers();
    seen.length = 0;
  });
  afterAll(() => {
    mockAi.close();
  });
  return seen;
}
