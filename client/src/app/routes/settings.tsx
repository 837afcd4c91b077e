import { PageTitle } from "@/components/page-title";

/** /settings: personal settings. Arrives with the account issue. */
export function SettingsPage() {
  return <PageTitle>Settings</PageTitle>;
}
