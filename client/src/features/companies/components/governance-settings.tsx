import { useForm } from "react-hook-form";
import type { Company } from "@shared/companies";
import { lapseDaysRange, searchLanguages, writtenRuleWords, type WrittenRule } from "@shared/governance-options";
import { Button } from "@/components/ui/button";
import { ChoiceCardsField } from "@/components/ui/choice-cards-field";
import { Form, FormField } from "@/components/ui/form";
import { LabeledField, LabeledItem, SwitchField } from "@/components/ui/form-fields";
import { FormSelect } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { deferredResolver } from "@/lib/deferred-resolver";
import { applyServerErrors } from "@/lib/form-errors";
import { useUpdateCompany } from "@/features/companies/api/update-company";
import { ReadingSettingsFields } from "@/features/companies/components/reading-settings-fields";
import type { GovernanceFormInput } from "@/features/companies/lib/governance-resolver";
import { asNumber } from "@/features/companies/lib/whole-number";

type FormInput = GovernanceFormInput;

// The validation chunk (the schemas and their library) is requested when the form is first focused or pressed.
const validation = deferredResolver<FormInput>(
  async () => (await import("@/features/companies/lib/governance-resolver")).governanceResolver,
);

const ruleOptions = [
  { value: "unanimous", label: "Unanimous", hint: "Every eligible director must agree." },
  { value: "majority", label: "Majority", hint: "More than half must agree; a share may ask for a meeting instead." },
] as const;

const toFormValues = (company: Company): FormInput => ({
  writtenResolutionRule: company.writtenResolutionRule,
  writtenLapseDays: String(company.writtenLapseDays),
  writtenAllowWithdrawal: company.writtenAllowWithdrawal,
  writtenMeetingDemandPercent: String(company.writtenMeetingDemandPercent),
  readReceipts: company.readReceipts,
  notesKept: company.notesRetentionDays == null ? "keep" : "delete",
  notesRetentionDays: company.notesRetentionDays == null ? "" : String(company.notesRetentionDays),
  searchLanguage: company.searchLanguage,
});

/** The languages the search stems words by, by name; "simple" stems none. */
const searchLanguageOptions = searchLanguages.map((language) => ({
  value: language,
  label: language === "simple" ? "Simple (no stemming)" : language[0]!.toUpperCase() + language.slice(1),
}));

/** The rule the form's values make, for the words under it (the saved one while a number is not yet valid). */
function ruleOf(values: FormInput, company: Company): WrittenRule {
  const lapseDays = Number(values.writtenLapseDays);
  const percent = Number(values.writtenMeetingDemandPercent);
  return {
    kind: values.writtenResolutionRule,
    lapseDays:
      Number.isInteger(lapseDays) && lapseDays >= lapseDaysRange.min && lapseDays <= lapseDaysRange.max
        ? lapseDays
        : company.writtenLapseDays,
    allowWithdrawal: values.writtenAllowWithdrawal,
    meetingDemandPercent: Number.isInteger(percent) && percent >= 1 && percent <= 100 ? percent : company.writtenMeetingDemandPercent,
  };
}

/**
 * Company Settings' Governance: the board's rule for written resolutions, read receipts, notes retention and the language
 * its record is searched in (founders and admins).
 */
export function GovernanceSettings({ company }: { company: Company }) {
  const updateCompany = useUpdateCompany(company.id);
  const form = useForm<FormInput>({
    resolver: validation.resolver,
    defaultValues: toFormValues(company),
    values: toFormValues(company),
    resetOptions: { keepDirtyValues: true },
  });
  const values = form.watch();
  const majority = values.writtenResolutionRule === "majority";

  async function onSubmit(values: FormInput) {
    const { notesKept, notesRetentionDays, ...rest } = values;
    const governance = {
      ...rest,
      writtenLapseDays: asNumber(values.writtenLapseDays),
      writtenMeetingDemandPercent: asNumber(values.writtenMeetingDemandPercent),
      notesRetentionDays: notesKept === "keep" ? null : asNumber(notesRetentionDays),
    };
    try {
      // The profile's required fields go as they are stored; the others, absent, are left as they are.
      const { name, industry, location, stage } = company;
      await updateCompany.mutateAsync({ name, industry: industry ?? "", location: location ?? "", stage: stage ?? "", ...governance });
      toast({ title: "Governance updated", description: `Written resolutions: ${writtenRuleWords(ruleOf(values, company))}.` });
    } catch (error) {
      applyServerErrors(form, error);
      toast({ title: "Update failed", description: "There was an error updating the governance settings.", variant: "destructive" });
    }
  }

  return (
    <section aria-labelledby="governance-heading" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="governance-heading" className="text-lg font-semibold">
          Governance
        </h2>
        <p className="text-sm text-muted-foreground">
          How the board decides written resolutions, signed by each director between meetings. A resolution keeps the rule it was proposed
          under.
        </p>
      </div>
      <Form {...form}>
        <form
          onSubmit={form.handleSubmit(onSubmit)}
          {...validation.prefetchOnTouch}
          noValidate
          aria-label="Governance"
          className="grid gap-5"
        >
          <ChoiceCardsField control={form.control} name="writtenResolutionRule" legend="Rule" options={ruleOptions} />
          <div className="grid gap-5 sm:grid-cols-2">
            <LabeledField
              control={form.control}
              name="writtenLapseDays"
              label="Lapse period (days)"
              description={`From ${lapseDaysRange.min} to ${lapseDaysRange.max} days after it is proposed.`}
            >
              {(field) => <Input inputMode="numeric" className="w-32" {...field} />}
            </LabeledField>
            {majority && (
              <LabeledField
                control={form.control}
                name="writtenMeetingDemandPercent"
                label="Meeting demand (% of eligible directors)"
                description="This share of the eligible directors asking for a meeting refers the resolution to one."
              >
                {(field) => <Input inputMode="numeric" className="w-32" {...field} />}
              </LabeledField>
            )}
          </div>
          <SwitchField
            control={form.control}
            name="writtenAllowWithdrawal"
            label="Withdrawal allowed"
            description="A director may withdraw their signature until the resolution takes effect."
          />
          <p className="text-sm" aria-live="polite">
            <span className="font-medium">In words: </span>
            {writtenRuleWords(ruleOf(values, company))}; signatures {values.writtenAllowWithdrawal ? "may" : "may not"} be withdrawn.
          </p>
          <ReadingSettingsFields control={form.control} notesKept={values.notesKept} />
          <FormField
            control={form.control}
            name="searchLanguage"
            render={({ field }) => (
              <LabeledItem
                label="Search language"
                description={
                  'The language of the board\'s papers and record: a search finds other forms of a word ("meetings" finds "meeting").'
                }
              >
                <div className="sm:max-w-xs">
                  <FormSelect field={field} options={searchLanguageOptions} placeholder="Choose a language" />
                </div>
              </LabeledItem>
            )}
          />
          <div className="flex justify-end">
            <Button type="submit" disabled={updateCompany.isPending}>
              {updateCompany.isPending ? "Saving..." : "Save governance"}
            </Button>
          </div>
        </form>
      </Form>
    </section>
  );
}
