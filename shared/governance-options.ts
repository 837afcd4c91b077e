// The choices and bounds of a board's governance settings, with no schema: Company Settings shows them without
// downloading the validation library. The schemas that check them are in written-resolutions.ts, search.ts and
// paper-reading.ts.

export const writtenRuleKinds = ["unanimous", "majority"] as const;
export type WrittenRuleKind = (typeof writtenRuleKinds)[number];

/** The board's rule for written resolutions, as it stood when one was proposed. */
export interface WrittenRule {
  kind: WrittenRuleKind;
  lapseDays: number;
  allowWithdrawal: boolean;
  meetingDemandPercent: number;
}

export const defaultWrittenRule: WrittenRule = { kind: "unanimous", lapseDays: 28, allowWithdrawal: true, meetingDemandPercent: 33 };
export const lapseDaysRange = { min: 1, max: 90 } as const;

/** The rule in words: shown in settings, beside a written resolution, and in its certificate's explanation. */
export function writtenRuleWords(rule: WrittenRule): string {
  const period = `lapses after ${rule.lapseDays} day${rule.lapseDays === 1 ? "" : "s"}`;
  return rule.kind === "unanimous"
    ? `every eligible director must agree; ${period}`
    : `more than half of the eligible directors must agree, and ${rule.meetingDemandPercent}% of them may ask for a meeting instead; ${period}`;
}

/** Text search configurations a company may choose for its record (Postgres names); english unless it chooses. */
export const searchLanguages = [
  "english",
  "danish",
  "dutch",
  "finnish",
  "french",
  "german",
  "italian",
  "norwegian",
  "portuguese",
  "spanish",
  "swedish",
  "simple",
] as const;
export type SearchLanguage = (typeof searchLanguages)[number];

/** How many days after the minutes are approved a board may keep its directors' notes, when it deletes them. */
export const notesRetentionRange = { min: 1, max: 3650 } as const;
