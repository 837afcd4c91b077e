import { Link } from "wouter";
import { can, canAdministerPlatform } from "@shared/permissions";
import { CheckingPermissions } from "@/components/checking-permissions";
import { ComingSoon } from "@/components/coming-soon";
import { PageHeader } from "@/components/page-header";
import { RequirePermission } from "@/components/require-permission";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { AdminServicesPanel } from "@/features/platform/components/admin-services-panel";

/**
 * /admin-portal: opens for those who run their company (founders and admins, who may edit it) and for
 * platform admins. The services' data and actions are for platform admins only: anyone else sees the
 * tabs and a line saying who manages them, never a table whose every action fails.
 */
export function AdminPortalPage() {
  const { user } = useCurrentUser();
  const platform = useIsPlatformAdmin();
  const platformAdmin = canAdministerPlatform(platform);
  const companyAdmin = can(user?.role, "editCompany");

  return (
    <RequirePermission
      allowed={companyAdmin || platformAdmin}
      checking={!companyAdmin && platform.isPending}
      refusal={{ card: "You don't have permission to access the admin portal." }}
    >
      <AdminPortal platformAdmin={platformAdmin} checkingPlatformAdmin={platform.isPending} />
    </RequirePermission>
  );
}

function AdminPortal({ platformAdmin, checkingPlatformAdmin }: { platformAdmin: boolean; checkingPlatformAdmin: boolean }) {
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <PageHeader title="Admin Portal" description="Platform services, company settings and people in one place." />
      <Tabs defaultValue="platform">
        <TabsList>
          <TabsTrigger value="platform">Platform Settings</TabsTrigger>
          <TabsTrigger value="company">Company Settings</TabsTrigger>
          <TabsTrigger value="users">User Management</TabsTrigger>
        </TabsList>
        <TabsContent value="platform">
          {checkingPlatformAdmin ? (
            <CheckingPermissions />
          ) : platformAdmin ? (
            <AdminServicesPanel screen="admin-portal" />
          ) : (
            <ComingSoon title="Platform Services">
              Platform services (the AI, e-mail, messaging and storage connections) are managed by platform administrators.
            </ComingSoon>
          )}
        </TabsContent>
        <TabsContent value="company">
          <ComingSoon title="Company Settings">
            Company profile and team members are managed on the{" "}
            <Link href="/company-settings" className="font-medium text-primary underline underline-offset-4">
              Company Settings
            </Link>{" "}
            page.
          </ComingSoon>
        </TabsContent>
        <TabsContent value="users">
          <ComingSoon title="User Management">User management is coming soon.</ComingSoon>
        </TabsContent>
      </Tabs>
    </div>
  );
}
