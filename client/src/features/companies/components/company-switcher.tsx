import { ChevronsUpDown, Plus } from "lucide-react";
import type { ComponentProps } from "react";
import { Link, useLocation } from "wouter";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";
import { toast } from "@/components/ui/use-toast";
import { cn } from "@/lib/utils";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useCompanies } from "@/features/companies/api/get-companies";
import { useSwitchCompany } from "@/features/companies/api/switch-company";
import { CompanyLogo } from "@/features/companies/components/company-logo";

// The menu (Radix's and its positioning library) loads when the switcher is first pressed.
const loadMenu = () => import("@/features/companies/components/company-switcher-menu");

/** The switcher is shown only to someone with more than one company, or to a platform admin. */
export function shouldShowCompanySwitcher(companyCount: number, isPlatformAdmin: boolean): boolean {
  return companyCount > 1 || isPlatformAdmin;
}

const rowClassName =
  "flex w-full min-w-0 items-center gap-2.5 rounded-md border border-sidebar-border px-2.5 py-2 text-left text-sm text-sidebar-foreground";

/**
 * The sidebar's company block. With one company (and no platform-admin rights) it shows that
 * company and an "Add Company" link; otherwise it is the switcher: a menu of the user's companies
 * (refetched each time it opens) and "Add Company" (CompanySwitcherMenu). Until the menu's code is there, the same
 * button stands in for its trigger.
 */
export function CompanySwitcher() {
  const { user } = useCurrentUser();
  const { isPlatformAdmin } = useIsPlatformAdmin();
  const companiesQuery = useCompanies();
  const switchCompany = useSwitchCompany();
  const { popup: menu, standIn, triggerRef } = usePopupOnDemand("menu", loadMenu);
  const [, navigate] = useLocation();

  if (!user) return null;
  const companies = companiesQuery.data ?? [];
  const current = companies.find((company) => company.id === user.companyId);

  if (!shouldShowCompanySwitcher(companies.length, isPlatformAdmin)) {
    if (!current) return null;
    return (
      <div className={rowClassName} data-testid="current-company">
        <CompanyLogo logoUrl={current.logoUrl} />
        <span className="min-w-0 flex-1">
          <span className="sr-only">Company: </span>
          <span className="block truncate font-medium" title={current.name}>
            {current.name}
          </span>
        </span>
        <Link
          href="/company-onboarding"
          title="Add Company"
          className="flex size-7 shrink-0 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <Plus className="size-4" aria-hidden />
          <span className="sr-only">Add Company</span>
        </Link>
      </div>
    );
  }

  function choose(companyId: number) {
    if (!user || companyId === user.companyId) return;
    switchCompany.mutate(
      { userId: user.id, companyId },
      {
        onSuccess: () => toast({ title: "Company changed", description: "Successfully switched company" }),
        onError: () => toast({ title: "Error", description: "Failed to switch company", variant: "destructive" }),
      },
    );
  }

  const disabled = switchCompany.isPending;
  const trigger = (props: ComponentProps<"button">) => (
    <button
      type="button"
      className={cn(
        rowClassName,
        "outline-none hover:bg-sidebar-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-60",
      )}
      disabled={disabled}
      data-disabled={disabled ? "" : undefined}
      aria-label={`Switch company (current: ${current?.name ?? "none"})`}
      data-testid="company-switcher"
      {...props}
    >
      <CompanyLogo logoUrl={current?.logoUrl} />
      <span className="block max-w-[120px] min-w-0 truncate font-medium" title={current?.name}>
        {current?.name ?? "Choose a company"}
      </span>
      <ChevronsUpDown className="ml-auto size-4 shrink-0 text-muted-foreground" aria-hidden />
    </button>
  );

  if (!menu) return trigger(standIn);
  return (
    <menu.CompanySwitcherMenu
      trigger={trigger({ ref: triggerRef })}
      disabled={disabled}
      companies={companies}
      activeCompanyId={user.companyId}
      listFailed={companiesQuery.isError}
      // The list is fetched again each time the switcher opens, so a company joined meanwhile is there.
      onOpen={() => void companiesQuery.refetch()}
      onChoose={choose}
      onAddCompany={() => navigate("/company-onboarding")}
    />
  );
}
