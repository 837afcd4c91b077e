import { LogOut } from "lucide-react";
import type { User } from "@shared/auth";
import { displayName } from "@shared/people";
import { roleLabel } from "@shared/roles";
import { NavLink, navEntryClassName } from "@/app/layout/nav-link";
import { accountNavItems, sidebarNavItems } from "@/app/layout/nav-items";
import type { Viewer } from "@/app/route-table";
import { BrandMark } from "@/components/brand-mark";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { initials } from "@/lib/format";
import { cn } from "@/lib/utils";
import { CompanySwitcher } from "@/features/companies/components/company-switcher";

export function UserBlock({ user }: { user: User }) {
  const name = displayName(user);
  return (
    <div className="flex min-w-0 items-center gap-3 px-1" data-testid="user-block">
      <Avatar>
        {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" />}
        {/* The avatar image, or else a single initial. */}
        <AvatarFallback aria-hidden>{initials(user).charAt(0)}</AvatarFallback>
      </Avatar>
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-sidebar-foreground">{name}</p>
        <p className="truncate text-xs text-muted-foreground">
          {/* With no company yet there is no role to label (roleLabel would say Observer). */}
          {user.companyId == null ? "No company yet" : roleLabel(user.role)}
        </p>
      </div>
    </div>
  );
}

/** Desktop sidebar (768 px and up). */
export function Sidebar({ user, viewer, onLogout, className }: { user: User; viewer: Viewer; onLogout: () => void; className?: string }) {
  return (
    <aside className={cn("w-64 shrink-0 flex-col border-r border-sidebar-border bg-sidebar", className)} aria-label="Sidebar">
      <div className="flex h-16 items-center gap-2.5 border-b border-sidebar-border px-5">
        <BrandMark />
        <span className="text-lg font-semibold tracking-tight text-sidebar-foreground">Quorum</span>
      </div>

      <div className="px-3 pt-4">
        <CompanySwitcher />
      </div>

      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-2">
        <ul className="grid gap-1">
          {sidebarNavItems(viewer).map((item) => (
            <li key={item.href}>
              <NavLink item={item} />
            </li>
          ))}
        </ul>
      </nav>

      <div className="grid gap-3 border-t border-sidebar-border p-3">
        <UserBlock user={user} />
        <ul className="grid gap-1" aria-label="Account">
          {accountNavItems(viewer).map((item) => (
            <li key={item.href}>
              <NavLink item={item} />
            </li>
          ))}
          <li>
            <button type="button" onClick={onLogout} className={navEntryClassName}>
              <LogOut className="size-4 shrink-0" aria-hidden />
              Logout
            </button>
          </li>
        </ul>
      </div>
    </aside>
  );
}
