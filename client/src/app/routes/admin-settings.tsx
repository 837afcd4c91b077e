import { ArrowLeft } from "lucide-react";
import { Link } from "wouter";
import { canAdministerPlatform } from "@shared/permissions";
import { ComingSoon } from "@/components/coming-soon";
import { PageHeader } from "@/components/page-header";
import { RequirePermission } from "@/components/require-permission";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { AdminServicesPanel } from "@/features/platform/components/admin-services-panel";

/** /admin-settings: platform admins only; others see the Access Denied card. */
export function AdminSettingsPage() {
  const platform = useIsPlatformAdmin();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <Button variant="ghost" size="sm" asChild className="-ml-2 justify-self-start">
        <Link href="/">
          <ArrowLeft aria-hidden />
          Back to Dashboard
        </Link>
      </Button>
      <RequirePermission
        allowed={canAdministerPlatform(platform)}
        checking={platform.isPending}
        refusal={{ card: "You don't have permission to access the admin settings." }}
      >
        <PageHeader title="Admin Settings" description="Platform-wide configuration for platform administrators." />
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
      </RequirePermission>
    </div>
  );
}
