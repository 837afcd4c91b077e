import { CompanySwitcher } from "@/features/companies/components/company-switcher";

/** Where the company switcher goes in the sidebar (features/companies). */
export function CompanySwitcherSlot() {
  return <CompanySwitcher />;
}
