import type { QueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import { dashboardFirstReads } from "@/app/dashboard-reads";

interface HeadStart {
  /** The page's module: the same one the route table loads, so both share one download. */
  code: () => Promise<unknown>;
  /** The page's first reads for the active company: its own queries ask for exactly these (same keys and fetchers). */
  reads: (queryClient: QueryClient, companyId: number) => void;
}

const dashboard: HeadStart = {
  code: () => import("@/app/routes/dashboard"),
  reads: (queryClient, companyId) => {
    const [compliance, pending, upcoming, recent] = dashboardFirstReads(companyId);
    void queryClient.prefetchQuery(compliance);
    void queryClient.prefetchQuery(pending);
    void queryClient.prefetchQuery(upcoming);
    void queryClient.prefetchQuery(recent);
  },
};

/** The pages a signed-in visitor most often opens first; any other page loads and reads as it renders. */
const headStarts: Partial<Record<string, HeadStart>> = { "/": dashboard, "/dashboard": dashboard };

/**
 * On a first load with a token stored: starts the code of the page at `path` at once, beside the signed-in
 * shell rather than after it, and its first reads as soon as `user` (so the active company) is known, rather
 * than once the page has arrived and rendered. It ships with the entry (about 2 KB): waiting for a chunk of its
 * own would hold the reads back until that chunk arrived.
 */
export function startPage(queryClient: QueryClient, path: string, user: Promise<User | null>): void {
  const page = headStarts[path];
  if (!page) return;
  // Only a head start: whatever fails here, the page asks again as it renders.
  page.code().catch(() => undefined);
  user.then(
    (signedIn) => {
      if (signedIn?.companyId != null) page.reads(queryClient, signedIn.companyId);
    },
    () => undefined,
  );
}
