import { ArrowLeft } from "lucide-react";
import { Link } from "wouter";
import { PageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { AccessDeniedCard } from "@/components/access-denied-card";
import { AdminServicesPanel } from "@/features/platform/components/admin-services-panel";
import { CheckingPermissions } from "@/components/checking-permissions";
import { ComingSoon } from "@/components/coming-soon";

/** /admin-settings: platform admins only (spec §2); others see the Access Denied card. */
export function AdminSettingsPage() {
  const { isPlatformAdmin, isPending } = useIsPlatformAdmin();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <Button variant="ghost" size="sm" asChild className="-ml-2 justify-self-start">
        <Link href="/">
          <ArrowLeft aria-hidden />
          Back to Dashboard
        </Link>
      </Button>
      {isPending ? (
        <CheckingPermissions />
      ) : !isPlatformAdmin ? (
        <AccessDeniedCard message="You don't have permission to access the admin settings." />
      ) : (
        <>
          <div className="grid gap-1">
            <PageTitle>Admin Settings</PageTitle>
            <p className="text-muted-foreground">Platform-wide configuration for platform administrators.</p>
          </div>
          <Tabs defaultValue="platform">
            <TabsList>
              <TabsTrigger value="platform">Platform Settings</TabsTrigger>
              <TabsTrigger value="users">User Management</TabsTrigger>
              <TabsTrigger value="companies">Company Management</TabsTrigger>
            </TabsList>
            <TabsContent value="platform">
              <AdminServicesPanel screen="admin-settings" />
            </TabsContent>
            <TabsContent value="users">
              <ComingSoon title="User Management">Managing users across companies is coming soon.</ComingSoon>
            </TabsContent>
            <TabsContent value="companies">
              <ComingSoon title="Company Management">Managing companies across the platform is coming soon.</ComingSoon>
            </TabsContent>
          </Tabs>
        </>
      )}
    </div>
  );
}
