import { Link, useLocation } from "wouter";
import type { NavItem } from "@/app/layout/nav-items";
import { isActivePath } from "@/app/layout/nav-items";
import { cn } from "@/lib/utils";

export const navEntryClassName =
  "flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-sidebar-foreground transition-colors outline-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50";

/** A navigation entry; the current route gets aria-current="page" and the highlight. */
export function NavLink({ item, onNavigate }: { item: NavItem; onNavigate?: () => void }) {
  const [location] = useLocation();
  const active = isActivePath(item.href, location);
  const Icon = item.icon;
  return (
    <Link
      href={item.href}
      aria-current={active ? "page" : undefined}
      onClick={onNavigate}
      className={cn(navEntryClassName, active && "bg-sidebar-accent font-semibold text-sidebar-accent-foreground")}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      <span className="truncate">{item.label}</span>
    </Link>
  );
}
