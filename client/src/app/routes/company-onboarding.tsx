import { PageHeader } from "@/components/page-header";
import { OnboardingWizard } from "@/features/companies/components/onboarding-wizard";

/** /company-onboarding: the three-step company wizard (a first company, or 'Add Company'). */
export function CompanyOnboardingPage() {
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Set up your company"
        description="Three short steps and your board is ready."
        className="mx-auto w-full max-w-2xl"
      />
      <OnboardingWizard />
    </div>
  );
}
