import { PageHeader } from "@/components/page-header";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { MyInvitationsPanel } from "@/features/companies/components/my-invitations-panel";
import { OnboardingWizard } from "@/features/companies/components/onboarding-wizard";

/**
 * /company-onboarding: the three-step company wizard (a first company, or 'Add Company'). Someone invited to a board
 * sees the invitations above it: joining one may be all they came for.
 */
export function CompanyOnboardingPage() {
  const { user } = useCurrentUser();
  return (
    <div className="grid gap-6">
      <PageHeader
        title="Set up your company"
        description="Three short steps and your board is ready."
        className="mx-auto w-full max-w-2xl"
      />
      {user && <MyInvitationsPanel userId={user.id} className="mx-auto w-full max-w-2xl" />}
      <OnboardingWizard />
    </div>
  );
}
