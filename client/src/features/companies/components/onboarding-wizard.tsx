import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { flushSync } from "react-dom";
import { useForm, type FieldErrors } from "react-hook-form";
import { combineLocation, onboardingFormSchema, onboardingToCompany, type Company, type OnboardingFormValues } from "@shared/companies";
import { industryLabel, onboardingIndustries, onboardingStages, stageLabel } from "@shared/options";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { SelectField } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { applyServerErrors } from "@/lib/form-errors";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useCreateCompany, useLinkUserToCompany } from "@/features/companies/api/create-company";
import { CompanyLogoField, CompanyWebsiteField, EmployeeCountField } from "@/features/companies/components/company-profile-fields";
import { SetupComplete } from "@/features/companies/components/setup-complete";

export const onboardingStepCount = 3;
type Step = 1 | 2 | 3;
type FieldName = keyof OnboardingFormValues;

/** Which step asks for which field. */
export const onboardingStepFields: Record<Step, FieldName[]> = {
  1: ["name", "industry", "stage", "description"],
  2: ["city", "country", "website", "employeeCount"],
  3: ["logoUrl"],
};

/** Progress of a step: 33, 66, 100. */
export const onboardingProgress = (step: Step) => (step === 3 ? 100 : step * 33);

/** Forward and back, never below 1 or above 3. */
export const clampStep = (step: number): Step => Math.min(onboardingStepCount, Math.max(1, Math.round(step))) as Step;

/** The first step holding a field with an error, or null. */
export function firstStepWithError(errors: Partial<Record<string, unknown>>): Step | null {
  for (const step of [1, 2, 3] as const) {
    if (onboardingStepFields[step].some((field) => errors[field])) return step;
  }
  return null;
}

const stepTitles: Record<Step, { title: string; description: string }> = {
  1: { title: "Company Information", description: "Tell us about your company." },
  2: { title: "Location & Size", description: "Where you are and how big you are." },
  3: { title: "Logo & Review", description: "Add your logo and check the details." },
};

const emptyValues: OnboardingFormValues = {
  name: "",
  industry: "",
  stage: "",
  description: "",
  city: "",
  country: "",
  website: "",
  employeeCount: "",
  logoUrl: "",
};

const createFailedText = "Failed to create company. Please try again.";

function ReviewRow({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-2 py-2 text-sm sm:grid-cols-[7rem_minmax(0,1fr)]">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium break-words">{value?.trim() ? value : "Not specified"}</dd>
    </div>
  );
}

/**
 * The three-step wizard of /company-onboarding. Next Step does not validate; the schema runs when
 * 'Complete Setup' is pressed, and the wizard goes back to the first step with a problem.
 * On success: 'Company created', the user is linked to the new company, and 'Setup Complete!' shows.
 */
export function OnboardingWizard() {
  const { user } = useCurrentUser();
  const [step, setStep] = useState<Step>(1);
  const [created, setCreated] = useState<Company | null>(null);
  const createCompany = useCreateCompany();
  const linkUser = useLinkUserToCompany();
  const form = useForm<OnboardingFormValues>({
    resolver: zodResolver(onboardingFormSchema),
    defaultValues: emptyValues,
    shouldFocusError: false,
  });

  const pending = createCompany.isPending || linkUser.isPending;

  function showProblems(errors: FieldErrors<OnboardingFormValues>) {
    const errorStep = firstStepWithError(errors);
    if (!errorStep) return;
    // Show the step now, so its first field with a problem is on the page to be focused.
    flushSync(() => setStep(errorStep));
    const field = onboardingStepFields[errorStep].find((name) => errors[name]);
    if (field && field !== "logoUrl") form.setFocus(field);
  }

  async function onSubmit(values: OnboardingFormValues) {
    let company: Company;
    try {
      company = await createCompany.mutateAsync(onboardingToCompany(values));
    } catch (error) {
      // The server checks the combined location; the wizard asks for it as city and country.
      applyServerErrors(form, error, { rename: { location: "city" } });
      const errorStep = firstStepWithError(form.formState.errors);
      if (errorStep) setStep(errorStep);
      toast({ title: "Error", description: createFailedText, variant: "destructive" });
      return;
    }
    toast({ title: "Company created", description: `${company.name} is ready.` });
    if (user) {
      try {
        await linkUser.mutateAsync({ userId: user.id, companyId: company.id });
      } catch {
        // The company exists either way: a failed link shows nothing, and the user can switch to it later.
      }
    }
    setCreated(company);
  }

  // Leaving starts the next visit afresh. (While the dashboard's code loads, React may keep this page
  // hidden rather than unmounted; an 'Add Company' click in that moment would otherwise show this screen again.)
  function startOver() {
    form.reset(emptyValues);
    setStep(1);
    setCreated(null);
  }

  if (created) return <SetupComplete company={created} onLeave={startOver} />;

  const values = form.watch();
  const { title, description } = stepTitles[step];

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit, showProblems)} noValidate aria-label="Company setup" className="mx-auto w-full max-w-2xl">
        <Card>
          <CardHeader className="gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <CardTitle className="text-xl">
                <h2>{title}</h2>
              </CardTitle>
              <Badge variant="secondary">
                Step {step} of {onboardingStepCount}
              </Badge>
            </div>
            <CardDescription>{description}</CardDescription>
            <Progress value={onboardingProgress(step)} aria-label={`Setup progress: ${onboardingProgress(step)}%`} />
          </CardHeader>

          <CardContent className="grid gap-5">
            {step === 1 && (
              <>
                <LabeledField control={form.control} name="name" label="Company name">
                  {(field) => <Input autoComplete="organization" placeholder="Acme Inc." {...field} />}
                </LabeledField>
                <div className="grid gap-5 sm:grid-cols-2">
                  <SelectField
                    control={form.control}
                    name="industry"
                    label="Industry"
                    options={onboardingIndustries}
                    placeholder="Select industry"
                  />
                  <SelectField
                    control={form.control}
                    name="stage"
                    label="Funding stage"
                    options={onboardingStages}
                    placeholder="Select stage"
                  />
                </div>
                <LabeledField control={form.control} name="description" label="Description">
                  {(field) => <Textarea rows={4} placeholder="What does your company do?" {...field} value={field.value ?? ""} />}
                </LabeledField>
              </>
            )}

            {step === 2 && (
              <>
                <fieldset className="grid gap-2">
                  <legend className="mb-2 text-sm font-medium">Location</legend>
                  <div className="grid gap-5 sm:grid-cols-2">
                    <LabeledField control={form.control} name="city" label="City">
                      {(field) => <Input autoComplete="address-level2" {...field} />}
                    </LabeledField>
                    <LabeledField control={form.control} name="country" label="Country">
                      {(field) => <Input autoComplete="country-name" {...field} />}
                    </LabeledField>
                  </div>
                </fieldset>
                <CompanyWebsiteField />
                <EmployeeCountField />
              </>
            )}

            {step === 3 && (
              <>
                <CompanyLogoField />
                <section aria-labelledby="onboarding-review" className="rounded-lg border bg-muted/40 px-4 py-2">
                  <h3 id="onboarding-review" className="pt-2 text-sm font-semibold">
                    Review
                  </h3>
                  <dl className="divide-y">
                    <ReviewRow label="Company" value={values.name} />
                    <ReviewRow label="Industry" value={industryLabel(values.industry)} />
                    <ReviewRow label="Stage" value={stageLabel(values.stage)} />
                    <ReviewRow label="Location" value={combineLocation(values.city, values.country)} />
                    <ReviewRow label="Size" value={values.employeeCount ? `${values.employeeCount} employees` : ""} />
                  </dl>
                </section>
              </>
            )}
          </CardContent>

          <CardFooter className="justify-between gap-3">
            <Button
              type="button"
              variant="outline"
              onClick={() => setStep((current) => clampStep(current - 1))}
              disabled={step === 1 || pending}
            >
              Back
            </Button>
            {step < onboardingStepCount ? (
              // Distinct keys: React must not turn this button into the submit button mid-click.
              <Button key="next" type="button" onClick={() => setStep((current) => clampStep(current + 1))}>
                Next Step
              </Button>
            ) : (
              <Button key="submit" type="submit" disabled={pending}>
                {pending ? "Creating..." : "Complete Setup"}
              </Button>
            )}
          </CardFooter>
        </Card>
      </form>
    </Form>
  );
}
