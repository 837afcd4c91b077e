import type { Control } from "react-hook-form";
import { notesRetentionRange } from "@shared/governance-options";
import { ChoiceCardsField } from "@/components/ui/choice-cards-field";
import { LabeledField, SwitchField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";

/** What the governance form holds of the reading settings: receipts, and notes kept or deleted after N days. */
export interface ReadingSettingsValues {
  readReceipts: boolean;
  notesKept: "keep" | "delete";
  notesRetentionDays: string;
}

export const readReceiptsDescription = "The secretary sees which directors have opened the pack and each paper — never pages or time.";

const retentionOptions = [
  { value: "keep", label: "Keep notes", hint: "Directors' private notes are kept until they delete them." },
  {
    value: "delete",
    label: "Delete after the minutes are approved",
    hint: "Each meeting's notes are deleted a set number of days after its minutes are approved.",
  },
] as const;

/** Company Settings → Governance: read receipts and notes retention, saved with the other governance fields. */
export function ReadingSettingsFields<T extends ReadingSettingsValues>({ control, notesKept }: { control: Control<T>; notesKept: string }) {
  // The fields' names are those of ReadingSettingsValues, which T extends.
  const own = control as unknown as Control<ReadingSettingsValues>;
  return (
    <>
      <SwitchField control={own} name="readReceipts" label="Read receipts" description={readReceiptsDescription} />
      <ChoiceCardsField control={own} name="notesKept" legend="Notes retention" options={retentionOptions} />
      {notesKept === "delete" && (
        <LabeledField
          control={own}
          name="notesRetentionDays"
          label="Days after the minutes are approved"
          description={`From ${notesRetentionRange.min} to ${notesRetentionRange.max} days.`}
        >
          {(field) => <Input inputMode="numeric" className="w-32" {...field} />}
        </LabeledField>
      )}
    </>
  );
}
