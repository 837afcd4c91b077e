import { ComingSoon } from "@/components/coming-soon";
import { PlatformServicesPage } from "@/features/platform/components/platform-services-page";

/** /admin-settings: platform admins only; others see the Access Denied card. */
export function AdminSettingsPage() {
  return (
    <PlatformServicesPage
      screen="admin-settings"
      title="Admin Settings"
      description="Platform-wide configuration for platform administrators."
      refusal={{ card: "You don't have permission to access the admin settings." }}
      backToDashboard
      otherTabs={[
        {
          value: "users",
          label: "User Management",
          content: <ComingSoon title="User Management">Managing users across companies is coming soon.</ComingSoon>,
        },
        {
          value: "companies",
          label: "Company Management",
          content: <ComingSoon title="Company Management">Managing companies across the platform is coming soon.</ComingSoon>,
        },
      ]}
    />
  );
}
