import { canAdministerPlatform } from "@shared/permissions";
import { RequirePermission } from "@/components/require-permission";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { PlatformSettingsView } from "@/features/platform/components/platform-settings-view";

/**
 * /platform-settings: platform admins only. Signed-out visitors are sent to / by the router;
 * a signed-in user the server does not confirm as a platform admin goes to /dashboard.
 */
export function PlatformSettingsPage() {
  const platform = useIsPlatformAdmin();
  return (
    <RequirePermission allowed={canAdministerPlatform(platform)} checking={platform.isPending} refusal={{ redirectTo: "/dashboard" }}>
      <PlatformSettingsView />
    </RequirePermission>
  );
}
