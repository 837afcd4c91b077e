import { PlatformServicesPage } from "@/features/platform/components/platform-services-page";

/**
 * /platform-settings: platform admins only. Signed-out visitors are sent to / by the router;
 * a signed-in user the server does not confirm as a platform admin goes to /dashboard.
 */
export function PlatformSettingsPage() {
  return (
    <PlatformServicesPage
      screen="platform-settings"
      title="Platform Settings"
      description="The external services Quorum uses: AI, e-mail, messaging and storage."
      refusal={{ redirectTo: "/dashboard" }}
      notice="These settings are for platform administrators only. Keys are stored encrypted and only ever shown masked."
    />
  );
}
