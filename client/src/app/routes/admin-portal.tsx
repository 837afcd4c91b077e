import { Link } from "wouter";
import { isCompanyAdmin } from "@shared/roles";
import { PageTitle } from "@/components/page-title";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { AccessDeniedCard } from "@/components/access-denied-card";
import { AdminServicesPanel } from "@/features/platform/components/admin-services-panel";
import { CheckingPermissions } from "@/components/checking-permissions";
import { ComingSoon } from "@/components/coming-soon";

/**
 * /admin-portal: opens for a company's founders and admins (spec §6), and for platform admins.
 * The services' data and actions are for platform admins only (CONTRACT "Platform services"):
 * anyone else sees the tabs and a line saying who manages them, never a table whose every action fails.
 */
export function AdminPortalPage() {
  const { user } = useCurrentUser();
  const { isPlatformAdmin, isPending } = useIsPlatformAdmin();
  const companyAdmin = isCompanyAdmin(user?.role);

  if (!companyAdmin && isPending) return <CheckingPermissions />;
  if (!companyAdmin && !isPlatformAdmin) return <AccessDeniedCard message="You don't have permission to access the admin portal." />;

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <div className="grid gap-1">
        <PageTitle>Admin Portal</PageTitle>
        <p className="text-muted-foreground">Platform services, company settings and people in one place.</p>
      </div>
      <Tabs defaultValue="platform">
        <TabsList>
          <TabsTrigger value="platform">Platform Settings</TabsTrigger>
          <TabsTrigger value="company">Company Settings</TabsTrigger>
          <TabsTrigger value="users">User Management</TabsTrigger>
        </TabsList>
        <TabsContent value="platform">
          {isPending ? (
            <CheckingPermissions />
          ) : isPlatformAdmin ? (
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
