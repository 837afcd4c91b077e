// Written resolutions: decided between meetings by each eligible director's signature over the exact text, under
// the board's own rule. What a signature commits to (the canonical statement), the rule's arithmetic and the frozen
// certificate are declared here once: the server decides with them, the client shows them, and the offline verifier
// checks a certificate with them.
import { z } from "zod";
import { answer } from "./answer";
import { lapseDaysRange, writtenRuleKinds, type WrittenRule } from "./governance-options";
import { integer, limits, password, text, webauthnResponse } from "./input";

// The rule's kinds, bounds and words hold no schema (a page shows them without the validation library); those who
// import them from here still find them.
export { defaultWrittenRule, lapseDaysRange, writtenRuleKinds, writtenRuleWords } from "./governance-options";
export type { WrittenRule, WrittenRuleKind } from "./governance-options";

export const resolutionProcedures = ["vote", "written"] as const;
export type ResolutionProcedure = (typeof resolutionProcedures)[number];

export const signDecisions = ["agree", "disagree", "meeting"] as const;
export type SignDecision = (typeof signDecisions)[number];

export const signatureMethods = ["passkey", "password", "password+totp"] as const;
export type SignatureMethod = (typeof signatureMethods)[number];

/** The choices a director is offered, as the signing dialog words them. */
export const signDecisionLabels: Record<SignDecision, string> = {
  agree: "I agree",
  disagree: "I do not agree",
  meeting: "I ask for a meeting",
};

export const writtenRuleSchema = answer.object({
  kind: answer.enum(writtenRuleKinds),
  lapseDays: answer.number().int(),
  allowWithdrawal: answer.boolean(),
  meetingDemandPercent: answer.number().int(),
});

/** The governance fields of a company's settings form; each absent one is left as it is. */
export const governanceSettingsFields = {
  writtenResolutionRule: z.optional(z.enum(writtenRuleKinds, { error: "Rule must be unanimous or majority" })),
  writtenLapseDays: z.optional(
    integer({
      ...lapseDaysRange,
      message: `Lapse period must be a whole number of days from ${lapseDaysRange.min} to ${lapseDaysRange.max}`,
    }),
  ),
  writtenAllowWithdrawal: z.optional(z.boolean({ error: "Withdrawal must be allowed or not" })),
  writtenMeetingDemandPercent: z.optional(
    integer({ min: 1, max: 100, message: "Meeting demand must be a whole percentage from 1 to 100" }),
  ),
};

export const governanceSettingsAnswerFields = {
  writtenResolutionRule: answer.enum(writtenRuleKinds),
  writtenLapseDays: answer.number().int(),
  writtenAllowWithdrawal: answer.boolean(),
  writtenMeetingDemandPercent: answer.number().int(),
};

// --- The rule's arithmetic ---

export interface WrittenCounts {
  agree: number;
  disagree: number;
  meeting: number;
}

export type WrittenOutcome =
  { decided: false } | { decided: true; outcome: "approved" | "rejected" | "referred"; lapsed: boolean; reason: string };

const directors = (count: number) => `${count} eligible director${count === 1 ? "" : "s"}`;

/** More than half of `eligible`. */
export const majorityOf = (eligible: number) => Math.floor(eligible / 2) + 1;

/** Whether `meeting` requests reach the rule's share of `eligible`. */
export const meetingDemanded = (rule: WrittenRule, eligible: number, meeting: number) =>
  meeting > 0 && meeting * 100 >= eligible * rule.meetingDemandPercent;

/**
 * Decides a written resolution from the signatures standing now, or says it is open. Unanimous: passed when every
 * eligible director agreed; rejected at the first "I do not agree". Majority: passed when more than half agreed;
 * referred to a meeting when the meeting requests reach the set share; rejected once the agreements still possible
 * cannot make more than half. Open at the lapse: rejected as lapsed. With no eligible director it waits for the lapse.
 */
export function decideWritten(rule: WrittenRule, eligible: number, counts: WrittenCounts, lapsed: boolean): WrittenOutcome {
  const { agree, disagree, meeting } = counts;
  if (rule.kind === "unanimous") {
    if (eligible > 0 && agree >= eligible)
      return { decided: true, outcome: "approved", lapsed: false, reason: `all ${directors(eligible)} agreed` };
    if (disagree > 0) {
      return {
        decided: true,
        outcome: "rejected",
        lapsed: false,
        reason: `${disagree} of ${directors(eligible)} did not agree, so unanimity can no longer be met`,
      };
    }
  } else {
    const needed = majorityOf(eligible);
    if (eligible > 0 && agree >= needed) {
      return { decided: true, outcome: "approved", lapsed: false, reason: `${agree} of ${directors(eligible)} agreed, more than half` };
    }
    if (meetingDemanded(rule, eligible, meeting)) {
      return {
        decided: true,
        outcome: "referred",
        lapsed: false,
        reason: `${meeting} of ${directors(eligible)} asked for a meeting, at least ${rule.meetingDemandPercent}%`,
      };
    }
    const stillPossible = agree + Math.max(0, eligible - agree - disagree - meeting);
    if (eligible > 0 && stillPossible < needed) {
      return {
        decided: true,
        outcome: "rejected",
        lapsed: false,
        reason: `at most ${stillPossible} of ${directors(eligible)} can still agree, so more than half can no longer agree`,
      };
    }
  }
  if (lapsed) {
    return {
      decided: true,
      outcome: "rejected",
      lapsed: true,
      reason: `it lapsed after ${rule.lapseDays} day${rule.lapseDays === 1 ? "" : "s"} with ${agree} of ${directors(eligible)} agreeing`,
    };
  }
  return { decided: false };
}

/**
 * Of the signatures standing, in the order they were given, the index of the one that met the rule: the needed-th
 * agreement (every eligible director's, or more than half of them), or the share-th meeting request; null when
 * rejected. Its time is the resolution's effective time, whatever later event (a recusal, a withdrawal) decided it.
 */
export function decidingSignatureIndex(
  rule: WrittenRule,
  eligible: number,
  outcome: "approved" | "rejected" | "referred",
  decisions: readonly SignDecision[],
): number | null {
  if (outcome === "rejected") return null;
  const decision: SignDecision = outcome === "approved" ? "agree" : "meeting";
  const needed =
    outcome === "referred"
      ? Math.max(1, Math.ceil((eligible * rule.meetingDemandPercent) / 100))
      : rule.kind === "unanimous"
        ? eligible
        : majorityOf(eligible);
  let seen = 0;
  for (const [index, given] of decisions.entries()) {
    if (given === decision && ++seen === needed) return index;
  }
  return null;
}

/** The first words of a decided written resolution's explanation. */
export function writtenOutcomeHeading(outcome: Extract<WrittenOutcome, { decided: true }>): string {
  if (outcome.outcome === "approved") return "Passed";
  if (outcome.outcome === "referred") return "Referred to a meeting";
  return outcome.lapsed ? "Lapsed" : "Rejected";
}

// --- What a signature commits to ---

/** The fields of the statement a director signs; its canonical JSON is what the passkey's challenge hashes. */
export interface SigningStatement {
  resolutionId: number;
  companyId: number;
  textSha256: string;
  decision: SignDecision;
  signerId: number;
  nonce: string;
}

/** JSON with every object's keys sorted and no spaces: one string for one value, whoever writes it. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export const signingStatementText = (statement: SigningStatement) => canonicalJson(statement);

// --- Requests ---

export const signOptionsSchema = z.object({
  decision: z.enum(signDecisions, { error: "Decision must be agree, disagree or meeting" }),
});
export type SignOptionsInput = z.infer<typeof signOptionsSchema>;

const statementMessage = "The statement to sign could not be read";

/** A signature: a passkey's assertion over the statement the server issued, or the password (and code) again. */
export const signResolutionSchema = z.union(
  [
    z.object({
      decision: signOptionsSchema.shape.decision,
      statement: text({ max: 2000, min: 1, requiredMessage: statementMessage, trim: false, singleLine: true }),
      response: webauthnResponse("The passkey's answer could not be read"),
    }),
    z.object({
      decision: signOptionsSchema.shape.decision,
      password: password("Password is required", 1),
      code: z.optional(text({ max: 16 })),
    }),
  ],
  { error: "Sign with a passkey, or with your password" },
);
export type SignResolutionInput = z.infer<typeof signResolutionSchema>;

export const nudgeSignerSchema = z.object({
  userId: integer({ min: 1, max: 2_147_483_647, message: "Choose a director to nudge" }),
});

// --- Answers ---

export const signOptionsAnswerSchema = answer.object({
  /** The canonical statement, to be sent back with the assertion. */
  statement: answer.string(),
  /** base64url(SHA-256(statement)): the WebAuthn challenge. */
  challenge: answer.string(),
  /** The browser's WebAuthn request options over the caller's passkeys. */
  options: answer.record(answer.string(), answer.unknown()),
});
export type SignOptions = z.infer<typeof signOptionsAnswerSchema>;

const person = { userId: answer.number().int(), name: answer.string() };

/** A written resolution's signing state as `GET /api/resolutions/:id` shows it: who has signed, never how, while open. */
export const writtenStateSchema = answer.object({
  rule: writtenRuleSchema,
  signed: answer.array(answer.object({ ...person, signedAt: answer.string() })),
  awaiting: answer.array(answer.object(person)),
  /** The caller's own signature, if any. */
  mine: answer
    .object({ decision: answer.enum(signDecisions), method: answer.enum(signatureMethods), signedAt: answer.string() })
    .nullable(),
  /** Whether the caller may sign it now. */
  maySign: answer.boolean(),
  /** Whether the caller may withdraw their signature now. */
  mayWithdraw: answer.boolean(),
  /** Whether the caller may nudge those who have not signed (the proposer, founders and admins). */
  mayNudge: answer.boolean(),
});
export type WrittenState = z.infer<typeof writtenStateSchema>;

export const writtenSignatureSchema = answer.object({
  ...person,
  decision: answer.enum(signDecisions),
  method: answer.enum(signatureMethods),
  signedAt: answer.string(),
  statement: answer.string(),
  credentialId: answer.string().optional(),
  /** The passkey's COSE public key, base64url. */
  publicKey: answer.string().optional(),
  authenticatorData: answer.string().optional(),
  clientDataJSON: answer.string().optional(),
  signature: answer.string().optional(),
});
export type WrittenSignature = z.infer<typeof writtenSignatureSchema>;

/** The frozen certificate of a decided written resolution: everything needed to check it with no database. */
export const writtenCertificateSchema = answer.object({
  procedure: answer.literal("written"),
  resolutionId: answer.number().int(),
  companyId: answer.number().int(),
  title: answer.string(),
  text: answer.string(),
  textSha256: answer.string(),
  rule: writtenRuleSchema,
  proposedAt: answer.string(),
  lapsesAt: answer.string(),
  eligible: answer.array(answer.object(person)),
  recused: answer.array(answer.object(person)),
  signatures: answer.array(writtenSignatureSchema),
  outcome: answer.enum(["approved", "rejected", "referred"]),
  /** The time of the last signature needed (approved or referred); null when rejected. */
  effectiveAt: answer.string().nullable(),
  decidedAt: answer.string(),
  explanation: answer.string(),
  /** The company's audit chain head when it was decided. */
  auditHeadHash: answer.string(),
});
export type WrittenCertificate = z.infer<typeof writtenCertificateSchema>;

export const maxWrittenTitle = limits.title;
