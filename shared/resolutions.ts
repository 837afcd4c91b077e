import { z } from "zod";
import { answer } from "./answer";
import { documentObjectSchema } from "./documents";
import { id, integer, isoTimestamp, limits, text } from "./input";
import { attendanceStatuses } from "./meeting-model";
import { resolutionStatuses, resolutionTab } from "./resolution-model";
import { resolutionProcedures, writtenCertificateSchema, writtenStateSchema } from "./written-resolutions";

export { resolutionStatuses, resolutionTab };
export type { ResolutionStatus, ResolutionTab } from "./resolution-model";

export const resolutionTypes = ["Ordinary", "Special", "Unanimous"] as const;
export type ResolutionType = (typeof resolutionTypes)[number];
export const voteChoices = ["yes", "no", "abstain"] as const;
export type VoteChoice = (typeof voteChoices)[number];

/** Each type's rule in words: shown in the New Resolution dialog and written into the certificate. */
export const resolutionRules: Record<ResolutionType, string> = {
  Ordinary: "an Ordinary resolution needs more yes than no votes",
  Special: "a Special resolution needs at least 75% of the yes and no votes",
  Unanimous: "a Unanimous resolution needs a yes from every eligible voter",
};

/** The one-line explanation the New Resolution dialog shows under each type. */
export const resolutionTypeHints: Record<ResolutionType, string> = {
  Ordinary: "Passes with more yes than no votes; abstentions do not count.",
  Special: "Passes with at least 75% yes among yes and no votes.",
  Unanimous: "Passes only when every eligible voter votes yes.",
};

export const maxResolutionDescription = 2000;
export const maxConflictReason = 500;
export const maxVoteComment = 1000;
export const maxResolutionDocuments = 50;

// --- Quorum ---

/** A company's quorum: null is the default, more than half of the eligible voters; else at least this percent of them. */
export type QuorumPercent = number | null;

export const defaultQuorumRule = "more than half of the eligible voters";

export function quorumRule(percent: QuorumPercent): string {
  return percent == null ? defaultQuorumRule : `at least ${percent}% of the eligible voters`;
}

/** How many votes (abstentions included) make a quorum of `eligible` voters; at least one. */
export function quorumRequired(eligible: number, percent: QuorumPercent): number {
  const needed = percent == null ? Math.floor(eligible / 2) + 1 : Math.ceil((eligible * percent) / 100);
  return Math.max(1, needed);
}

export const quorumSettingsSchema = z.object({
  quorumPercent: z.nullable(integer({ min: 1, max: 100, message: "Quorum must be a whole percentage from 1 to 100" })),
});
export type QuorumSettings = z.infer<typeof quorumSettingsSchema>;

// --- The outcome rules ---

export interface Tally {
  yes: number;
  no: number;
  abstain: number;
}

export interface OutcomeInput {
  type: ResolutionType;
  /** Votes cast by eligible, non-recused voters. */
  tally: Tally;
  /** Eligible voters (founders, admins and members at the time of counting) who have not declared a conflict. */
  eligible: number;
  /** Eligible voters who declared a conflict (out of the denominator). */
  recused: number;
  /** True once the deadline has passed. */
  deadlinePassed: boolean;
  quorumPercent: QuorumPercent;
}

export const quorumResultSchema = answer.object({
  rule: answer.string(),
  required: answer.number().int(),
  present: answer.number().int(),
  met: answer.boolean(),
});
export type QuorumResult = z.infer<typeof quorumResultSchema>;

export type Outcome =
  { decided: false } | { decided: true; outcome: "approved" | "rejected"; explanation: string; quorum: QuorumResult; rule: string };

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/**
 * Decides a resolution, or says it is not yet decided. It is decided as soon as every eligible voter has
 * voted (votes can change while pending, so nothing earlier is certain), or once the deadline has passed
 * with at least one vote cast (with none it stays pending: expired). Ordinary: more yes than no (a tie is
 * rejected). Special: yes at least 75% of yes and no, and at least one yes. Unanimous: every eligible voter
 * voted yes. At the deadline an Ordinary or Special resolution whose votes (abstentions included) fall
 * short of quorum is rejected for want of quorum; when everyone voted, quorum is always met.
 */
export function decideOutcome(input: OutcomeInput): Outcome {
  const { type, tally, eligible, recused, deadlinePassed, quorumPercent } = input;
  const cast = tally.yes + tally.no + tally.abstain;
  const everyoneVoted = eligible > 0 && cast >= eligible;
  if (!everyoneVoted && !(deadlinePassed && cast > 0)) return { decided: false };

  const required = quorumRequired(eligible, quorumPercent);
  const quorum: QuorumResult = { rule: quorumRule(quorumPercent), required, present: cast, met: everyoneVoted || cast >= required };
  const rule = resolutionRules[type];
  const counts = `${tally.yes} yes, ${tally.no} no, ${tally.abstain} abstain of ${eligible} eligible${recused > 0 ? ` (${recused} recused)` : ""}`;
  const quorumWords = `quorum ${quorum.required} of ${eligible} ${quorum.met ? "met" : "not met"}`;

  if (type !== "Unanimous" && !quorum.met) {
    return {
      decided: true,
      outcome: "rejected",
      explanation: `Rejected: no quorum: ${plural(cast, "vote")} of ${eligible} eligible${recused > 0 ? ` (${recused} recused)` : ""}, quorum ${required} (${quorum.rule})`,
      quorum,
      rule,
    };
  }

  let approved: boolean;
  if (type === "Ordinary") approved = tally.yes > tally.no;
  else if (type === "Special") approved = tally.yes > 0 && 4 * tally.yes >= 3 * (tally.yes + tally.no);
  else approved = everyoneVoted && tally.yes === eligible;

  const suffix = type === "Unanimous" ? "" : `; ${quorumWords}`;
  return {
    decided: true,
    outcome: approved ? "approved" : "rejected",
    explanation: `${approved ? "Approved" : "Rejected"}: ${counts}; ${rule}${suffix}`,
    quorum,
    rule,
  };
}

// --- Wire shapes ---

export const resolutionTitleMax = limits.title;

export const createResolutionSchema = z
  .object({
    title: text({
      max: limits.title,
      min: 1,
      requiredMessage: "Title is required",
      maxMessage: `Title must be at most ${limits.title} characters`,
    }),
    description: text({
      max: maxResolutionDescription,
      min: 1,
      requiredMessage: "Description is required",
      maxMessage: `Description must be at most ${maxResolutionDescription} characters`,
    }),
    /** A written resolution is decided by the board's rule for written resolutions: its type and deadline are ignored. */
    procedure: z.enum(resolutionProcedures, { message: "Decide by must be vote or written" }).default("vote"),
    type: z.optional(z.enum(resolutionTypes, { message: "Type must be Ordinary, Special or Unanimous" })),
    deadline: z.optional(isoTimestamp("Deadline must be an ISO date and time")),
    documentIds: z
      .array(id("Documents must be document ids"), { message: "Documents must be a list of document ids" })
      .max(maxResolutionDocuments, `At most ${maxResolutionDocuments} documents`)
      .default([])
      .transform((ids) => [...new Set(ids)]),
    /** Always created pending: any status sent is ignored. */
    status: z.optional(z.enum(resolutionStatuses, { message: "Status must be pending" })),
  })
  .check((ctx) => {
    if (ctx.value.procedure !== "vote") return;
    if (ctx.value.type === undefined)
      ctx.issues.push({ code: "custom", input: ctx.value.type, path: ["type"], message: "Type must be Ordinary, Special or Unanimous" });
    if (ctx.value.deadline === undefined)
      ctx.issues.push({ code: "custom", input: ctx.value.deadline, path: ["deadline"], message: "Deadline must be an ISO date and time" });
  });

export type CreateResolutionInput = z.input<typeof createResolutionSchema>;

export const castVoteSchema = z.object({
  vote: z.enum(voteChoices, { message: "Vote must be yes, no or abstain" }),
  comment: z.nullish(text({ max: maxVoteComment, maxMessage: `Comment must be at most ${maxVoteComment} characters` })),
});
export type CastVoteInput = z.input<typeof castVoteSchema>;

export const conflictSchema = z.object({
  reason: text({
    max: maxConflictReason,
    min: 1,
    requiredMessage: "Reason is required",
    maxMessage: `Reason must be at most ${maxConflictReason} characters`,
  }),
});

// Answers. Timestamps travel as ISO strings.

const tallyShape = { yes: answer.number().int(), no: answer.number().int(), abstain: answer.number().int() };

export const resolutionSchema = answer.object({
  id: answer.number().int(),
  title: answer.string(),
  description: answer.string(),
  procedure: answer.enum(resolutionProcedures),
  type: answer.enum(resolutionTypes),
  /** A written resolution's lapse. */
  deadline: answer.string(),
  /** A written resolution's: hex SHA-256 of the UTF-8 bytes of its text (`description`), which never changes. */
  textSha256: answer.string().nullable(),
  lapsesAt: answer.string().nullable(),
  status: answer.enum(resolutionStatuses),
  createdAt: answer.string(),
  createdBy: answer.number().int().nullable(),
  decidedAt: answer.string().nullable(),
  explanation: answer.string().nullable(),
  documentIds: answer.array(answer.number().int()),
  voteCounts: answer.object(tallyShape),
});
export type Resolution = z.infer<typeof resolutionSchema>;

export const pendingResolutionSummarySchema = answer.object({
  id: answer.number().int(),
  title: answer.string(),
  createdAt: answer.string(),
  deadline: answer.string(),
  procedure: answer.enum(resolutionProcedures),
  /** A written resolution the caller may sign and has not yet signed. */
  awaitingYourSignature: answer.boolean(),
});
export type PendingResolutionSummary = z.infer<typeof pendingResolutionSummarySchema>;

export const voteCountsSchema = answer.object({
  ...tallyShape,
  total: answer.number().int(),
  userVote: answer.enum(voteChoices).nullable(),
});
export type VoteCounts = z.infer<typeof voteCountsSchema>;

export const certificateSchema = answer.object({
  decidedAt: answer.string(),
  outcome: answer.enum(["approved", "rejected"]),
  rule: answer.string(),
  quorum: quorumResultSchema,
  eligible: answer.array(answer.object({ userId: answer.number().int(), name: answer.string(), role: answer.string() })),
  recused: answer.array(answer.object({ userId: answer.number().int(), name: answer.string(), reason: answer.string() })),
  votes: answer.array(
    answer.object({
      userId: answer.number().int(),
      name: answer.string(),
      vote: answer.enum(voteChoices),
      comment: answer.string().nullable(),
      castAt: answer.string(),
    }),
  ),
  ...tallyShape,
  explanation: answer.string(),
  /** Decided by a show of hands in this meeting (absent when decided online). */
  meetingId: answer.number().int().optional(),
  /** Who attended that meeting, as recorded when it decided. */
  attendance: answer
    .array(answer.object({ userId: answer.number().int(), name: answer.string(), status: answer.enum(attendanceStatuses) }))
    .optional(),
});
export type Certificate = z.infer<typeof certificateSchema>;

export const resolutionDetailsSchema = resolutionSchema.extend({
  /** The papers it carries, each at its latest version (as the library shows them). */
  documents: answer.array(
    documentObjectSchema.pick({ id: true, name: true, fileType: true, hasFile: true, version: true, replacedAt: true }),
  ),
  /** Who has voted so far (names, never choices, while pending). */
  voters: answer.array(answer.object({ userId: answer.number().int(), name: answer.string() })),
  /** Who declared a conflict on it. */
  recusals: answer.array(answer.object({ userId: answer.number().int(), name: answer.string(), reason: answer.string() })),
  certificate: certificateSchema.nullable(),
  /** A written resolution's signing state (null for a vote). */
  written: writtenStateSchema.nullable(),
  /** A decided written resolution's frozen certificate. */
  writtenCertificate: writtenCertificateSchema.nullable(),
});
export type ResolutionDetails = z.infer<typeof resolutionDetailsSchema>;

/** A company's quorum setting and its rule in words. */
export const quorumSettingSchema = answer.object({ quorumPercent: answer.number().int().nullable(), rule: answer.string() });
export type QuorumSetting = z.infer<typeof quorumSettingSchema>;
