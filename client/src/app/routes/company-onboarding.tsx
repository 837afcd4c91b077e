import { PageTitle } from "@/components/page-title";
import { OnboardingWizard } from "@/features/companies/components/onboarding-wizard";

/** /company-onboarding: the three-step company wizard (a first company, or 'Add Company'). */
export function CompanyOnboardingPage() {
  return (
    <div className="grid gap-6">
      <div className="mx-auto grid w-full max-w-2xl gap-1">
        <PageTitle>Set up your company</PageTitle>
        <p className="text-sm text-muted-foreground">Three short steps and your board is ready.</p>
      </div>
      <OnboardingWizard />
    </div>
  );
}
