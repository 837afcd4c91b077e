import type { QueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import { dashboardFirstReads } from "@/app/dashboard-reads";
import { HOME_PATHS } from "@/app/home-paths";

/**
 * On a first load with a token stored, at the dashboard's address: starts the dashboard's first reads as soon as
 * `user` (so the active company) is known, rather than once the page's code has arrived and rendered; its panels
 * ask for exactly these (same keys and fetchers). The page's code is started by the build's preload script and
 * the route table. This ships with the entry (about 2 KB): waiting for a chunk of its own would hold the reads
 * back until that chunk arrived.
 */
export function startPage(queryClient: QueryClient, path: string, user: Promise<User | null>): void {
  if (!HOME_PATHS.includes(path)) return;
  // Only a head start: whatever fails here, the panels ask again as they render.
  user.then(
    (signedIn) => {
      if (signedIn?.companyId == null) return;
      // One by one: each read has its own data type, which a loop over them would lose.
      const [compliance, pending, upcoming, recent] = dashboardFirstReads(signedIn.companyId);
      void queryClient.prefetchQuery(compliance);
      void queryClient.prefetchQuery(pending);
      void queryClient.prefetchQuery(upcoming);
      void queryClient.prefetchQuery(recent);
    },
    () => undefined,
  );
}
