/** The forms' option lists. The server stores industry and stage as free text; these lists are the forms'. */

export interface Option {
  value: string;
  label: string;
}

/** Industries offered by the onboarding wizard. */
export const onboardingIndustries: readonly Option[] = [
  { value: "technology", label: "Technology" },
  { value: "healthcare", label: "Healthcare" },
  { value: "finance", label: "Finance" },
  { value: "education", label: "Education" },
  { value: "retail", label: "Retail" },
  { value: "manufacturing", label: "Manufacturing" },
  { value: "energy", label: "Energy" },
  { value: "media", label: "Media & Entertainment" },
  { value: "transportation", label: "Transportation" },
  { value: "other", label: "Other" },
];

/** Funding stages offered by the onboarding wizard. */
export const onboardingStages: readonly Option[] = [
  { value: "pre-seed", label: "Pre-seed" },
  { value: "seed", label: "Seed" },
  { value: "series-a", label: "Series A" },
  { value: "series-b", label: "Series B" },
  { value: "series-c", label: "Series C or later" },
  { value: "profitable", label: "Profitable" },
  { value: "public", label: "Public" },
];

/** Industries offered by Company Settings (a different list from onboarding's). */
export const settingsIndustries: readonly Option[] = [
  { value: "technology", label: "Technology" },
  { value: "healthcare", label: "Healthcare" },
  { value: "finance", label: "Finance" },
  { value: "education", label: "Education" },
  { value: "real-estate", label: "Real Estate" },
  { value: "retail", label: "Retail" },
  { value: "manufacturing", label: "Manufacturing" },
  { value: "other", label: "Other" },
];

/** Funding stages offered by Company Settings. */
export const settingsStages: readonly Option[] = [
  { value: "pre-seed", label: "Pre-seed" },
  { value: "seed", label: "Seed" },
  { value: "series-a", label: "Series A" },
  { value: "series-b", label: "Series B" },
  { value: "series-c", label: "Series C" },
  { value: "series-d", label: "Series D+" },
  { value: "public", label: "Public" },
];

export const employeeCounts = ["1-10", "11-50", "51-200", "201-500", "500+"] as const;
export type EmployeeCount = (typeof employeeCounts)[number];
export const employeeCountOptions: readonly Option[] = employeeCounts.map((value) => ({ value, label: value }));

function labelFrom(lists: readonly (readonly Option[])[], value: string | null | undefined): string {
  if (!value) return "";
  for (const list of lists) {
    const found = list.find((option) => option.value === value);
    if (found) return found.label;
  }
  // Free text (a value no list knows) is shown as it was stored.
  return value;
}

/** The label of an industry value from either list (onboarding's wording first). */
export const industryLabel = (value: string | null | undefined) => labelFrom([onboardingIndustries, settingsIndustries], value);

/** The label of a stage value from either list (onboarding's wording first). */
export const stageLabel = (value: string | null | undefined) => labelFrom([onboardingStages, settingsStages], value);

/**
 * The options of a select, plus the current value when the list does not hold it (a company set up with
 * "Energy" keeps that industry when its settings, whose list has no Energy, are saved).
 */
export function optionsWithCurrent(
  options: readonly Option[],
  current: string | null | undefined,
  label: (value: string) => string,
): readonly Option[] {
  if (!current || options.some((option) => option.value === current)) return options;
  return [...options, { value: current, label: label(current) }];
}
