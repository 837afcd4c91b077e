import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { Logger } from "pino";
import { agendaItemsSchema, type AgendaItem } from "../../../shared/meetings";
import { serviceNames } from "../../../shared/platform";
import type { AppDeps } from "../app-deps";
import { HttpError } from "../http/errors";
import { findEnabledServiceCredentials } from "./service-credentials";

const defaultAiTimeoutMs = 20_000;
const openAiBaseUrl = "https://api.openai.com/v1";

/** What an agenda is drafted from: the meeting and its company's data (CONTRACT "AI agenda"). */
export interface AgendaContext {
  meeting: { title: string; startsAt: Date; location: string };
  company: {
    name: string;
    industry: string | null;
    location: string | null;
    stage: string | null;
    description: string | null;
  };
  /** The company's pending resolutions, oldest first. */
  pendingResolutions: { title: string; type: string; deadline: Date }[];
  /** The company's newest documents (files only, never meetings). */
  recentDocuments: { name: string; category: string; createdAt: Date }[];
  /** The company's last scheduled meeting before this one, whose minutes are approved first. */
  lastMeeting: { title: string; startsAt: Date } | null;
}

export interface AiAgendaConfig {
  apiKey: string;
  baseURL: string;
  model: string;
  timeoutMs: number;
}

/**
 * The enabled "OpenAI" platform service (its key, and its URL for any OpenAI-compatible server) wins;
 * otherwise OPENAI_API_KEY / OPENAI_BASE_URL from the environment; otherwise null (the template is used).
 */
export async function resolveAiConfig(deps: Pick<AppDeps, "db" | "appSecret" | "ai">): Promise<AiAgendaConfig | null> {
  const timeoutMs = deps.ai.timeoutMs ?? defaultAiTimeoutMs;
  let stored;
  try {
    stored = await findEnabledServiceCredentials(deps.db, deps.appSecret, serviceNames.ai);
  } catch {
    // A key written under another APP_SECRET: the service is configured but unusable.
    throw new HttpError(502, "The AI service is configured but its key cannot be read; ask a platform administrator to enter it again.");
  }
  if (stored) {
    return { apiKey: stored.key, baseURL: stored.url?.trim() || openAiBaseUrl, model: deps.ai.model, timeoutMs };
  }
  if (deps.ai.apiKeyFromEnv) {
    return { apiKey: deps.ai.apiKeyFromEnv, baseURL: deps.ai.baseUrlFromEnv || openAiBaseUrl, model: deps.ai.model, timeoutMs };
  }
  return null;
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const orNone = (lines: string[]) => (lines.length > 0 ? lines.join("\n") : "- none");

/** The chat messages sent to the model. */
function buildAgendaPrompt(context: AgendaContext): { system: string; user: string } {
  const { meeting, company, pendingResolutions, recentDocuments, lastMeeting } = context;
  const profile = [
    `Name: ${company.name}`,
    company.industry && `Industry: ${company.industry}`,
    company.stage && `Stage: ${company.stage}`,
    company.location && `Location: ${company.location}`,
    company.description && `Description: ${company.description}`,
  ].filter(Boolean);
  const user = [
    "Draft the agenda for this board meeting.",
    "",
    `Meeting title: ${meeting.title}`,
    `Meeting date: ${meeting.startsAt.toISOString()} (UTC), two hours`,
    `Location: ${meeting.location || "not specified"}`,
    lastMeeting ? `Previous meeting: ${lastMeeting.title} (${day(lastMeeting.startsAt)})` : "Previous meeting: none recorded",
    "",
    "Company profile:",
    ...profile,
    "",
    "Pending resolutions awaiting the board:",
    orNone(pendingResolutions.map((resolution) => `- ${resolution.title} (${resolution.type}, voting closes ${day(resolution.deadline)})`)),
    "",
    "Recent documents:",
    orNone(recentDocuments.map((document) => `- ${document.name} (${document.category}, ${day(document.createdAt)})`)),
    "",
    'Answer with JSON only, no prose and no code fences, in exactly this shape: {"items": [{"title": string, "duration": number, "description": string}]}.',
    "Give 3 to 12 items in running order. duration is whole minutes between 1 and 120. description is one or two sentences.",
    "Open with the call to order and quorum, approve the previous minutes, give each pending resolution its own item by name, and end with any other business and the close.",
  ].join("\n");
  return {
    system: "You are an experienced company secretary who drafts concise, well-ordered board meeting agendas. You answer with JSON only.",
    user,
  };
}

/** Whole minutes given as "10" are read as 10; anything else must already be a number. */
const normaliseDuration = (value: unknown) => (typeof value === "string" && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value);

/** Reads the model's answer: a JSON object with `items` (or a bare array), optionally wrapped in a code fence. Null when it is not a valid agenda. */
function parseAgendaAnswer(text: string | null | undefined): AgendaItem[] | null {
  if (!text) return null;
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfenced);
  } catch {
    return null;
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { items?: unknown; agenda?: unknown } | null)?.items ?? (parsed as { agenda?: unknown } | null)?.agenda;
  if (!Array.isArray(list)) return null;
  const candidates = list.map((item: unknown) =>
    item && typeof item === "object" ? { ...item, duration: normaliseDuration((item as { duration?: unknown }).duration) } : item,
  );
  const result = agendaItemsSchema.safeParse(candidates);
  return result.success ? result.data : null;
}

/** Asks the model for an agenda. Every failure becomes a 502 with a message; nothing here can crash the request. */
export async function requestAiAgenda(config: AiAgendaConfig, context: AgendaContext, logger: Logger): Promise<AgendaItem[]> {
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    // Never read OPENAI_ORG_ID / OPENAI_PROJECT_ID behind env.ts's back.
    organization: null,
    project: null,
    timeout: config.timeoutMs,
    maxRetries: 0,
  });
  const prompt = buildAgendaPrompt(context);
  // The SDK's timeout covers waiting for the response headers; this one also covers reading the body.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  const redact = (text: string) => text.split(config.apiKey).join("[redacted]");
  let answer: string | null | undefined;
  try {
    const completion = await client.chat.completions.create(
      {
        model: config.model,
        messages: [
          { role: "system", content: prompt.system },
          { role: "user", content: prompt.user },
        ],
      },
      { signal: controller.signal },
    );
    answer = completion.choices?.[0]?.message?.content;
  } catch (error) {
    const timedOut = controller.signal.aborted || error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError;
    const status = error instanceof APIError ? error.status : undefined;
    logger.warn(
      { ai: { baseURL: config.baseURL, model: config.model, status, timedOut, error: redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error)) } },
      "agenda generation failed",
    );
    if (timedOut) {
      throw new HttpError(502, `The AI service did not answer within ${Number((config.timeoutMs / 1000).toFixed(1))} seconds`);
    }
    if (status) throw new HttpError(502, `The AI service answered with an error (${status})`);
    throw new HttpError(502, "The AI service could not be reached");
  } finally {
    clearTimeout(timer);
  }
  const items = parseAgendaAnswer(answer);
  if (!items) {
    logger.warn({ ai: { baseURL: config.baseURL, model: config.model, answerLength: answer?.length ?? 0 } }, "agenda answer was not a valid agenda");
    throw new HttpError(502, "The AI service answered with something that is not a valid agenda");
  }
  return items;
}
