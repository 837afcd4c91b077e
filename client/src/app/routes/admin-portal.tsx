import { Link } from "wouter";
import { ComingSoon } from "@/components/coming-soon";
import { PlatformServicesPage } from "@/features/platform/components/platform-services-page";

/**
 * /admin-portal: opens for those who run their company (founders and admins, who may edit it) and for
 * platform admins. The services' data and actions are for platform admins only: anyone else sees the
 * tabs and a line saying who manages them, never a table whose every action fails.
 */
export function AdminPortalPage() {
  return (
    <PlatformServicesPage
      screen="admin-portal"
      title="Admin Portal"
      description="Platform services, company settings and people in one place."
      refusal={{ card: "You don't have permission to access the admin portal." }}
      forCompanyAdmins={
        <ComingSoon title="Platform Services">
          Platform services (the AI, e-mail, messaging and storage connections) are managed by platform administrators.
        </ComingSoon>
      }
      otherTabs={[
        {
          value: "company",
          label: "Company Settings",
          content: (
            <ComingSoon title="Company Settings">
              Company profile and team members are managed on the{" "}
              <Link href="/company-settings" className="font-medium text-primary underline underline-offset-4">
                Company Settings
              </Link>{" "}
              page.
            </ComingSoon>
          ),
        },
        {
          value: "users",
          label: "User Management",
          content: <ComingSoon title="User Management">User management is coming soon.</ComingSoon>,
        },
      ]}
    />
  );
}
