import { matchRoute, useLocation, useRouter, type Parser } from "wouter";
import { MobileMenu } from "@/app/layout/mobile-menu";
import { SearchLauncher } from "@/app/layout/search-launcher";
import { signedInRoutes, type Viewer } from "@/app/route-table";
import { NotificationsMenu } from "@/features/notifications/components/notifications-menu";

/** The header's title: the route table's title of the route at `location`, else the product name. */
export function headerTitle(location: string, parser: Parser): string {
  return signedInRoutes.find((route) => matchRoute(parser, route.path, location)[0])?.title ?? "Quorum";
}

export function Header({ viewer, onLogout }: { viewer: Viewer; onLogout: () => void }) {
  const [location] = useLocation();
  // The router's own pattern parser, so the header matches a path exactly as the routes do.
  const { parser } = useRouter();
  return (
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b bg-background/90 px-4 backdrop-blur supports-[backdrop-filter]:bg-background/75 md:px-8">
      <MobileMenu viewer={viewer} onLogout={onLogout} />
      <p className="min-w-0 flex-1 truncate text-lg font-semibold tracking-tight" data-testid="header-title">
        {headerTitle(location, parser)}
      </p>
      <SearchLauncher />
      <NotificationsMenu />
    </header>
  );
}
