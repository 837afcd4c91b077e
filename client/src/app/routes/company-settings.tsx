import { lazy, Suspense } from "react";
import type { User } from "@shared/auth";
import { displayName } from "@shared/people";
import { can } from "@shared/permissions";
import { PageHeader } from "@/components/page-header";
import { RequirePermission } from "@/components/require-permission";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useCompanySettings } from "@/features/companies/api/get-company-settings";
import { CompanyGeneralForm } from "@/features/companies/components/company-general-form";
import { GovernanceSettings } from "@/features/companies/components/governance-settings";
import { TeamMembers } from "@/features/companies/components/team-members";
import { QuorumSetting } from "@/features/resolutions/components/quorum-setting";

// The audit log (its filters, list and verdicts) loads when its tab is first opened.
const AuditLog = lazy(async () => ({ default: (await import("@/features/audit/components/audit-log")).AuditLog }));

/** /company-settings: for those who may edit the company (founders and admins); anyone else goes to / with 'Access Denied'. */
export function CompanySettingsPage() {
  const { user } = useCurrentUser();
  // Signed-in pages always have a user; on the way out after a logout there is none, and nothing to refuse.
  if (!user) return null;
  return (
    <RequirePermission
      allowed={can(user.role, "editCompany")}
      refusal={{ redirectTo: "/", toast: "You don't have permission to access company settings." }}
    >
      <CompanySettings user={user} />
    </RequirePermission>
  );
}

/** The page itself; its data is asked for only once the user is let in. */
function CompanySettings({ user }: { user: User }) {
  const settings = useCompanySettings();
  return (
    <div className="grid gap-6">
      <PageHeader title="Company Settings" description="Your company's profile and who sits on its board." />

      {settings.isPending ? (
        <div className="grid gap-4" aria-busy="true" aria-label="Loading company settings">
          <Skeleton className="h-10 w-64" />
          <Skeleton className="h-96 rounded-xl" />
        </div>
      ) : settings.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the company settings. Please reload the page.
        </p>
      ) : (
        <Tabs defaultValue="general">
          <TabsList>
            <TabsTrigger value="general">General</TabsTrigger>
            <TabsTrigger value="team">Team Members</TabsTrigger>
            {can(user.role, "viewAudit") && <TabsTrigger value="audit">Audit log</TabsTrigger>}
          </TabsList>
          <TabsContent value="general">
            <Card>
              <CardContent>
                <CompanyGeneralForm key={settings.data.company.id} company={settings.data.company} />
              </CardContent>
            </Card>
            <Card className="mt-6">
              <CardContent>
                <QuorumSetting />
              </CardContent>
            </Card>
            <Card className="mt-6">
              <CardContent>
                <GovernanceSettings key={settings.data.company.id} company={settings.data.company} />
              </CardContent>
            </Card>
          </TabsContent>
          <TabsContent value="team">
            <TeamMembers companyId={settings.data.company.id} members={settings.data.members} actor={{ id: user.id, role: user.role }} />
          </TabsContent>
          {can(user.role, "viewAudit") && (
            <TabsContent value="audit">
              <Card>
                <CardContent>
                  <Suspense fallback={<Skeleton className="h-96 rounded-xl" aria-label="Loading the audit log" />}>
                    <AuditLog
                      companyId={settings.data.company.id}
                      members={settings.data.members.map((member) => ({ id: member.id, name: displayName(member) }))}
                    />
                  </Suspense>
                </CardContent>
              </Card>
            </TabsContent>
          )}
        </Tabs>
      )}
    </div>
  );
}
