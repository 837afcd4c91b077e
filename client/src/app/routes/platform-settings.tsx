import { Redirect } from "wouter";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { CheckingPermissions } from "@/components/checking-permissions";
import { PlatformSettingsView } from "@/features/platform/components/platform-settings-view";

/**
 * /platform-settings: platform admins only. Signed-out visitors are sent to / by the router;
 * a signed-in user the server does not confirm as a platform admin goes to /dashboard (spec §2, §6).
 */
export function PlatformSettingsPage() {
  const { isPlatformAdmin, isPending } = useIsPlatformAdmin();
  if (isPending) return <CheckingPermissions />;
  if (!isPlatformAdmin) return <Redirect to="/dashboard" replace />;
  return <PlatformSettingsView />;
}
