import { serviceNames } from "../../../shared/platform";
import type { Database } from "../db/client";
import { OutboundAddressError, checkHttpServiceUrl, guardedFetch, type OutboundPolicy } from "./outbound-address";
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
  /** Where the client may connect (OUTBOUND_ALLOWED_HOSTS and the resolver). */
  outbound: OutboundPolicy;
}

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/**
 * Why the AI service gave no answer: its key cannot be decrypted (written under another APP_SECRET), its address
 * is one the server may not connect to, it did not answer within the timeout, it answered with an error status,
 * or it could not be reached. The message never contains the key; it is for the log.
 */
export type AiFailure = "unreadable-key" | "refused-address" | "timeout" | "error-status" | "unreachable";

/**
 * What users are told of every failure but an unreadable key: one sentence whatever happened upstream, so an
 * answer never tells which addresses and ports answer, nor repeats what the upstream said. The log has the detail.
 */
export const aiUpstreamFailureMessage = "The AI service did not answer as expected";

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

const unreadableKeyMessage = "The AI service is configured but its key cannot be read; ask a platform administrator to enter it again.";

/**
 * What users are told when the AI gave no answer, for every caller alike: an unreadable key (which an administrator
 * can fix) or the one sentence for anything upstream. `instead` finishes it with what the caller did instead.
 */
export function aiFailureMessage(error: AiServiceError, instead?: string): string {
  if (error.failure === "unreadable-key") {
    return instead ? `${unreadableKeyMessage} ${instead.charAt(0).toUpperCase()}${instead.slice(1)}` : unreadableKeyMessage;
  }
  return instead ? `${aiUpstreamFailureMessage}; ${instead}` : aiUpstreamFailureMessage;
}

/**
 * What a log line says of an AI failure: its kind and the upstream's status, never the error's message, which for an
 * error status carries the upstream's body (and may quote what was sent).
 */
export function aiFailureForLog(error: AiServiceError): { failure: AiFailure; status?: number } {
  return error.status === undefined ? { failure: error.failure } : { failure: error.failure, status: error.status };
}

/**
 * The enabled "OpenAI" platform service (its key, and its URL for any OpenAI-compatible server) wins;
 * otherwise OPENAI_API_KEY / OPENAI_BASE_URL from the environment; otherwise null (no AI configured).
 */
export async function resolveAiConfig(deps: {
  db: Database;
  appSecret: string;
  ai: AiSettings;
  outbound: OutboundPolicy;
}): Promise<AiChatConfig | null> {
  const timeoutMs = deps.ai.timeoutMs ?? defaultAiTimeoutMs;
  let stored;
  try {
    stored = await findEnabledServiceCredentials(deps.db, deps.appSecret, serviceNames.ai);
  } catch {
    throw new AiServiceError("unreadable-key", "The stored AI service key cannot be decrypted with this APP_SECRET");
  }
  if (stored) {
    const baseURL = stored.url?.trim() || openAiBaseUrl;
    return { apiKey: stored.key, baseURL, model: deps.ai.model, timeoutMs, outbound: deps.outbound };
  }
  if (deps.ai.apiKeyFromEnv) {
    // OPENAI_BASE_URL follows the same rule as a stored URL; completeChat checks it before connecting.
    const baseURL = deps.ai.baseUrlFromEnv || openAiBaseUrl;
    return { apiKey: deps.ai.apiKeyFromEnv, baseURL, model: deps.ai.model, timeoutMs, outbound: deps.outbound };
  }
  return null;
}

/**
 * One chat completion: answers the text of the first choice (null when there is none). Plain messages only
 * (no response_format or temperature, which some compatible servers reject), no retries.
 * Every failure is an AiServiceError.
 */
export async function completeChat(config: AiChatConfig, messages: ChatMessage[]): Promise<string | null> {
  // Loaded at the first call: the SDK costs tens of milliseconds of CPU that every start of the server paid.
  const { default: OpenAI, APIConnectionTimeoutError, APIError, APIUserAbortError } = await import("openai");
  let connection: ReturnType<typeof guardedFetch>;
  try {
    checkHttpServiceUrl(config.outbound, config.baseURL);
    connection = guardedFetch(config.outbound, config.baseURL);
  } catch (error) {
    if (error instanceof OutboundAddressError) throw new AiServiceError("refused-address", error.message);
    throw error;
  }
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    // Never read OPENAI_ORG_ID / OPENAI_PROJECT_ID behind env.ts's back.
    organization: null,
    project: null,
    timeout: config.timeoutMs,
    maxRetries: 0,
    fetch: connection.fetch,
  });
  // The SDK's timeout covers waiting for the response headers; this one also covers reading the body.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  try {
    const completion = await client.chat.completions.create({ model: config.model, messages }, { signal: controller.signal });
    return completion.choices?.[0]?.message?.content ?? null;
  } catch (error) {
    const detail = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split(config.apiKey).join("[redacted]");
    if (causes(error).some((cause) => cause instanceof OutboundAddressError)) throw new AiServiceError("refused-address", detail);
    if (controller.signal.aborted || error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) {
      throw new AiServiceError("timeout", `No answer within ${config.timeoutMs} ms (${detail})`);
    }
    if (error instanceof APIError && error.status) throw new AiServiceError("error-status", detail, error.status);
    throw new AiServiceError("unreachable", detail);
  } finally {
    clearTimeout(timer);
    void connection.close().catch(() => undefined);
  }
}

/** An error and the causes it wraps (the SDK wraps fetch's, which wraps the socket's). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current != null && chain.length < 5; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}
