// The AI may reword drafted minutes, never change what they record: its text is kept only when every fact of the
// record is still in it. Any failure of the AI leaves the draft as the server wrote it; only a caller past its limits
// of AI calls is refused (429), before anything is written.
import { minutesTextInputSchema, type MinutesDraft } from "../../../../shared/meeting-record";
import type { AppDeps, ServiceDeps } from "../../app-deps";
import {
  AiServiceError,
  aiFailureForLog,
  aiFailureMessage,
  completeChat,
  resolveAiConfig,
  type AiChatConfig,
} from "../../integrations/ai-chat";
import { countAiCall } from "../../limits";
import { factWords, missingFact, type Fact } from "./minutes-facts";

export type Improvement = NonNullable<MinutesDraft["improvement"]>;

const refusedPrefix = "The AI's wording was not used";

const systemPrompt = [
  "You edit the minutes of a company's board meeting, written in Markdown.",
  "Improve the wording and flow only: keep the headings, the order and every fact.",
  "Copy exactly, character for character, every name, attendance label (Present, Present by video, Apologies, Absent, Guests, Chair),",
  "number, vote count, outcome word (Approved, Rejected, Not decided), date, time and title; the user lists them.",
  "Never add, drop or change a fact. Answer with the minutes only, no comments and no code fence.",
].join(" ");

function userPrompt(draft: string, facts: readonly Fact[]): string {
  const kept = [...new Set(facts.map(factWords))].map((words) => `- ${words}`).join("\n");
  return `Facts to keep verbatim:\n${kept}\n\nThe minutes:\n\n${draft}`;
}

/** The answer without a code fence around it (many models add one whatever they are told). */
function unfenced(answer: string): string {
  const fenced = /^\s*```[\w-]*\n([\s\S]*?)\n```\s*$/.exec(answer);
  return (fenced ? fenced[1]! : answer).trim();
}

/**
 * The AI's wording of `draft` when it keeps every fact (outcome "kept"), else the draft with why it was not used:
 * "refused" (a fact changed or dropped, or a text the minutes cannot hold), "unavailable" (no AI configured) or
 * "failed" (the AI did not answer). Log lines carry the service's address and model, never a text.
 */
export async function improveMinutes(
  deps: ServiceDeps<"db" | "clock" | "appSecret" | "ai" | "limits" | "outbound">,
  asker: { companyId: number; userId: number },
  draft: string,
  facts: readonly Fact[],
  logger: AppDeps["logger"],
): Promise<{ text: string; improvement: Improvement }> {
  const unchanged = (improvement: Improvement) => ({ text: draft, improvement });
  let config: AiChatConfig | null = null;
  let answer: string | null;
  try {
    config = await resolveAiConfig(deps);
    if (!config) {
      return unchanged({ outcome: "unavailable", message: "No AI service is configured: the minutes are as drafted from the record." });
    }
    // Past the company's or the user's hourly limit of AI calls, a 429 (with Retry-After) before anything is written.
    await countAiCall(deps, asker);
    answer = await completeChat(config, [
      { role: "system", content: systemPrompt },
      { role: "user", content: userPrompt(draft, facts) },
    ]);
  } catch (error) {
    if (!(error instanceof AiServiceError)) throw error;
    const where = config ? { baseURL: config.baseURL, model: config.model } : {};
    logger.warn({ ai: { ...where, ...aiFailureForLog(error) } }, "minutes wording failed");
    return unchanged({ outcome: "failed", message: aiFailureMessage(error, "the minutes are as drafted from the record.") });
  }
  const text = unfenced(answer ?? "");
  if (text === "")
    return unchanged({ outcome: "failed", message: "The AI service gave no text; the minutes are as drafted from the record." });
  const valid = minutesTextInputSchema.safeParse({ text });
  if (!valid.success) {
    return unchanged({ outcome: "refused", message: `${refusedPrefix}: ${valid.error.issues[0]?.message ?? "it is not a valid text"}` });
  }
  const missing = missingFact(text, facts);
  if (missing) return unchanged({ outcome: "refused", message: `${refusedPrefix}: it changed or dropped “${factWords(missing)}”` });
  return { text: `${valid.data.text}\n`, improvement: { outcome: "kept", message: null } };
}
