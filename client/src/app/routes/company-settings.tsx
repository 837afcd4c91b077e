import { Suspense, useDeferredValue } from "react";
import type { User } from "@shared/auth";
import type { CompanySettings as CompanySettingsData } from "@shared/companies";
import { displayName } from "@shared/people";
import { can } from "@shared/permissions";
import { PageHeader } from "@/components/page-header";
import { RequirePermission } from "@/components/require-permission";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";
import { useCompanySettings } from "@/features/companies/api/get-company-settings";
import { CompanyGeneralForm } from "@/features/companies/components/company-general-form";
import { NearView } from "@/features/companies/components/near-view";
import { QuorumSetting } from "@/features/resolutions/components/quorum-setting";

// Each section below is drawn by WhenLoaded, its placeholder until its code is here: a Suspense fallback would hold the
// section back until 300 ms after it showed. The Suspense boundaries stay for a download asked for again after a failure.
// The audit log (its filters, list and verdicts) loads when its tab is first opened.
const AuditLog = loadOnDemand(() => import("@/features/audit/components/audit-log"), "AuditLog");
// The governance form (with its checks, most of the validation library's schemas) loads as it comes near the view: it
// sits below the profile, out of sight on a first paint.
const GovernanceSettings = loadOnDemand(() => import("@/features/companies/components/governance-settings"), "GovernanceSettings");
// The team's list and invitation form load when their tab is first opened; a pointer or focus on the tab starts the download.
// Only the component is handed on: loadOnDemand would read its props from every export of the module.
const TeamMembers = loadOnDemand(
  () => import("@/features/companies/components/team-members").then((module) => ({ TeamMembers: module.TeamMembers })),
  "TeamMembers",
);

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
  // The first answer lands in an update the query library cannot defer: the tabs first appear in a deferred render
  // instead, which React does in slices the browser can interleave with its own work. Later answers (a save, another
  // admin's change) are drawn at once, so the forms follow the server as soon as it answers.
  const ready = useDeferredValue(settings.isSuccess);
  return (
    <div className="grid gap-6">
      <PageHeader title="Company Settings" description="Your company's profile and who sits on its board." />

      {settings.isPending || (settings.isSuccess && !ready) ? (
        <div className="grid gap-4" aria-busy="true" aria-label="Loading company settings">
          <Skeleton className="h-10 w-64" />
          <Skeleton className="h-96 rounded-xl" />
        </div>
      ) : settings.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the company settings. Please reload the page.
        </p>
      ) : (
        <SettingsTabs settings={settings.data} user={user} />
      )}
    </div>
  );
}

const governanceLoading = <Skeleton className="h-96 rounded-xl" aria-label="Loading the governance settings" />;
const teamLoading = <Skeleton className="h-96 rounded-xl" aria-label="Loading the team" />;
const auditLoading = <Skeleton className="h-96 rounded-xl" aria-label="Loading the audit log" />;

function SettingsTabs({ settings, user }: { settings: CompanySettingsData; user: User }) {
  const { company, members } = settings;
  return (
    <Tabs defaultValue="general">
      <TabsList>
        <TabsTrigger value="general">General</TabsTrigger>
        <TabsTrigger value="team" onPointerEnter={TeamMembers.preload} onFocus={TeamMembers.preload}>
          Team Members
        </TabsTrigger>
        {can(user.role, "viewAudit") && <TabsTrigger value="audit">Audit log</TabsTrigger>}
      </TabsList>
      <TabsContent value="general">
        <Card>
          <CardContent>
            <CompanyGeneralForm key={company.id} company={company} />
          </CardContent>
        </Card>
        <NearView placeholder={<Skeleton className="mt-6 h-96 rounded-xl" />}>
          <Card className="mt-6">
            <CardContent>
              <QuorumSetting />
            </CardContent>
          </Card>
          <Card className="mt-6">
            <CardContent>
              <Suspense fallback={governanceLoading}>
                <WhenLoaded key={company.id} component={GovernanceSettings} placeholder={governanceLoading} props={{ company }} />
              </Suspense>
            </CardContent>
          </Card>
        </NearView>
      </TabsContent>
      <TabsContent value="team">
        <Suspense fallback={teamLoading}>
          <WhenLoaded
            component={TeamMembers}
            placeholder={teamLoading}
            props={{ companyId: company.id, members, actor: { id: user.id, role: user.role } }}
          />
        </Suspense>
      </TabsContent>
      {can(user.role, "viewAudit") && (
        <TabsContent value="audit">
          <Card>
            <CardContent>
              <Suspense fallback={auditLoading}>
                <WhenLoaded
                  component={AuditLog}
                  placeholder={auditLoading}
                  props={{ companyId: company.id, members: members.map((member) => ({ id: member.id, name: displayName(member) })) }}
                />
              </Suspense>
            </CardContent>
          </Card>
        </TabsContent>
      )}
    </Tabs>
  );
}
