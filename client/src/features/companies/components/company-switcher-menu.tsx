import { Check, Plus } from "lucide-react";
import { useState, type ReactElement } from "react";
import { roleLabel } from "@shared/roles";
import type { CompanySummary } from "@shared/companies";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { CompanyLogo } from "@/features/companies/components/company-logo";

/**
 * The switcher's menu (loaded when the switcher is first pressed, see CompanySwitcher): `trigger` is its button;
 * the menu lists the user's companies, the active one checked, and "Add Company".
 */
export function CompanySwitcherMenu({
  trigger,
  disabled,
  companies,
  activeCompanyId,
  listFailed,
  onOpen,
  onChoose,
  onAddCompany,
}: {
  trigger: ReactElement;
  disabled: boolean;
  companies: CompanySummary[];
  activeCompanyId: number | null;
  listFailed: boolean;
  onOpen: () => void;
  onChoose: (companyId: number) => void;
  onAddCompany: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DropdownMenu
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) onOpen();
      }}
    >
      <DropdownMenuTrigger asChild disabled={disabled}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-60">
        <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">Companies</DropdownMenuLabel>
        {companies.map((company) => (
          <DropdownMenuItem
            key={company.id}
            onSelect={() => onChoose(company.id)}
            aria-current={company.id === activeCompanyId ? "true" : undefined}
          >
            <CompanyLogo logoUrl={company.logoUrl} className="size-6" />
            <span className="min-w-0 flex-1">
              <span className="block truncate">{company.name}</span>
              <span className="block truncate text-xs text-muted-foreground">{roleLabel(company.role)}</span>
            </span>
            {company.id === activeCompanyId && <Check className="size-4" aria-label="Current company" />}
          </DropdownMenuItem>
        ))}
        {listFailed && <p className="px-2 py-1.5 text-sm text-destructive">Could not load your companies.</p>}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onAddCompany}>
          <Plus aria-hidden />
          Add Company
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
