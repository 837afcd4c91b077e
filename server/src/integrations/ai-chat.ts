import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { serviceNames } from "../../../shared/platform";
import type { Database } from "../db/client";
import { findEnabledServiceCredentials } from "./service-credentials";

/**
 * The AI service as an adapter: one chat completion against any OpenAI-compatible server, with its
 * credentials, timeout and failures. It knows nothing of what is asked or what the answer means; its
 * callers build the messages, read the answer and decide what a failure means to their users.
 */
const defaultAiTimeoutMs = 20_000;
const openAiBaseUrl = "https://api.openai.com/v1";

/** What the environment says about the AI service (OPENAI_MODEL, OPENAI_API_KEY, OPENAI_BASE_URL). */
export interface AiSettings {
  model: string;
  apiKeyFromEnv?: string;
  baseUrlFromEnv?: string;
  timeoutMs?: number;
}

export interface AiChatConfig {
  apiKey: string;
  baseURL: string;
  model: string;
  timeoutMs: number;
}

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/**
 * Why the AI service gave no answer: its key cannot be decrypted (written under another APP_SECRET), it
 * did not answer within the timeout, it answered with an error status, or it could not be reached.
 * The message never contains the key.
 */
export type AiFailure = "unreadable-key" | "timeout" | "error-status" | "unreachable";

export class AiServiceError extends Error {
  constructor(
    readonly failure: AiFailure,
    message: string,
    /** The HTTP status the service answered with, for "error-status". */
    readonly status?: number,
  ) {
    super(message);
    this.name = "AiServiceError";
  }
}

/**
 * The enabled "OpenAI" platform service (its key, and its URL for any OpenAI-compatible server) wins;
 * otherwise OPENAI_API_KEY / OPENAI_BASE_URL from the environment; otherwise null (no AI configured).
 */
export async function resolveAiConfig(deps: { db: Database; appSecret: string; ai: AiSettings }): Promise<AiChatConfig | null> {
  const timeoutMs = deps.ai.timeoutMs ?? defaultAiTimeoutMs;
  let stored;
  try {
    stored = await findEnabledServiceCredentials(deps.db, deps.appSecret, serviceNames.ai);
  } catch {
    throw new AiServiceError("unreadable-key", "The stored AI service key cannot be decrypted with this APP_SECRET");
  }
  if (stored) {
    return { apiKey: stored.key, baseURL: stored.url?.trim() || openAiBaseUrl, model: deps.ai.model, timeoutMs };
  }
  if (deps.ai.apiKeyFromEnv) {
    return { apiKey: deps.ai.apiKeyFromEnv, baseURL: deps.ai.baseUrlFromEnv || openAiBaseUrl, model: deps.ai.model, timeoutMs };
  }
  return null;
}

/**
 * One chat completion: answers the text of the first choice (null when there is none). Plain messages only
 * (no response_format or temperature, which some compatible servers reject), no retries.
 * Every failure is an AiServiceError.
 */
export async function completeChat(config: AiChatConfig, messages: ChatMessage[]): Promise<string | null> {
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    // Never read OPENAI_ORG_ID / OPENAI_PROJECT_ID behind env.ts's back.
    organization: null,
    project: null,
    timeout: config.timeoutMs,
    maxRetries: 0,
  });
  // The SDK's timeout covers waiting for the response headers; this one also covers reading the body.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  try {
    const completion = await client.chat.completions.create({ model: config.model, messages }, { signal: controller.signal });
    return completion.choices?.[0]?.message?.content ?? null;
  } catch (error) {
    const detail = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split(config.apiKey).join("[redacted]");
    if (controller.signal.aborted || error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
      throw new AiServiceError("timeout", `No answer within ${config.timeoutMs} ms (${detail})`);
    }
    if (error instanceof APIError && error.status) throw new AiServiceError("error-status", detail, error.status);
    throw new AiServiceError("unreachable", detail);
  } finally {
    clearTimeout(timer);
  }
}
