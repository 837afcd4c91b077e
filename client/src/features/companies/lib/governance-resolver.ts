import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { readingSettingsFields } from "@shared/paper-reading";
import { searchLanguages } from "@shared/search";
import { governanceSettingsFields, writtenRuleKinds } from "@shared/written-resolutions";
import { asNumber } from "@/features/companies/lib/whole-number";

// Company Settings' governance validation: the server's own rules and messages for each number. Its own chunk, loaded
// when the form is first touched, so the section draws without the validation library.

/** A number field's text, as the whole number the server takes, checked by the server's own rule and message. */
const wholeNumber = (rule: { safeParse: (value: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }) =>
  z.string().check((ctx) => {
    const result = rule.safeParse(asNumber(ctx.value));
    if (!result.success)
      ctx.issues.push({ code: "custom", input: ctx.value, message: result.error?.issues[0]?.message ?? "Invalid number" });
  });

const governanceFormSchema = z
  .object({
    writtenResolutionRule: z.enum(writtenRuleKinds),
    writtenLapseDays: wholeNumber(governanceSettingsFields.writtenLapseDays),
    writtenAllowWithdrawal: z.boolean(),
    writtenMeetingDemandPercent: wholeNumber(governanceSettingsFields.writtenMeetingDemandPercent),
    readReceipts: z.boolean(),
    notesKept: z.enum(["keep", "delete"]),
    notesRetentionDays: z.string(),
    searchLanguage: z.enum(searchLanguages),
  })
  .superRefine((values, ctx) => {
    // The number counts only when notes are deleted; it is checked by the server's own rule and message then.
    if (values.notesKept !== "delete") return;
    const result = readingSettingsFields.notesRetentionDays.safeParse(asNumber(values.notesRetentionDays));
    if (!result.success)
      ctx.addIssue({ code: "custom", path: ["notesRetentionDays"], message: result.error.issues[0]?.message ?? "Invalid number" });
  });
export type GovernanceFormInput = z.infer<typeof governanceFormSchema>;

export const governanceResolver = zodResolver(governanceFormSchema);
