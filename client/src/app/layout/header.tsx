import { useLocation } from "wouter";
import { MobileMenu } from "@/app/layout/mobile-menu";
import { NotificationsMenu } from "@/features/account/components/notifications-menu";

/** The header title by route (spec §2); any other route shows the product name. */
export function headerTitle(location: string): string {
  if (location === "/" || location === "/dashboard") return "Dashboard";
  if (location === "/meetings" || location.startsWith("/meetings/")) return "Meetings";
  if (location === "/documents") return "Documents";
  if (location === "/resolutions" || location.startsWith("/resolutions/")) return "Resolutions";
  if (location === "/board-members") return "Board Members";
  if (location === "/settings") return "Settings";
  return "Quorum";
}

export function Header({ onLogout }: { onLogout: () => void }) {
  const [location] = useLocation();
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b bg-background/90 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/75 md:px-8">
      <MobileMenu onLogout={onLogout} />
      <p className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight" data-testid="header-title">
        {headerTitle(location)}
      </p>
      <NotificationsMenu />
    </header>
  );
}
