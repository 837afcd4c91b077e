import { useMemo } from "react";
import { Link } from "wouter";
import { DashboardPanel } from "@/components/dashboard-panel";
import { Button } from "@/components/ui/button";
import { formatLongDate } from "@/lib/format";
import { useNow } from "@/lib/use-now";
import { usePendingResolutions } from "@/features/resolutions/api/get-pending-resolutions";

/** The dashboard's Pending Resolutions: open resolutions, soonest deadline first, each with 'Vote Now'. */
export function PendingResolutionsPanel({ className }: { className?: string }) {
  const pending = usePendingResolutions();
  const now = useNow();
  // Loaded once: one whose deadline passes while the page is open leaves the panel.
  const open = useMemo(
    () => (pending.data ?? []).filter((resolution) => new Date(resolution.deadline).getTime() > now.getTime()),
    [pending.data, now],
  );

  return (
    <DashboardPanel
      title="Pending Resolutions"
      viewAllHref="/resolutions"
      query={pending}
      empty={open.length === 0}
      emptyText="No pending resolutions."
      skeletonRows={2}
      className={className}
    >
      <ul className="grid gap-3">
        {open.map((resolution) => (
          <li key={resolution.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3">
            <div className="grid min-w-0 gap-1">
              <p className="font-medium break-words">{resolution.title}</p>
              <p className="text-xs text-muted-foreground">
                Created on {formatLongDate(resolution.createdAt)} • Expires: {formatLongDate(resolution.deadline)}
              </p>
            </div>
            <Button asChild size="sm">
              <Link href={`/resolutions/${resolution.id}`} aria-label={`Vote Now: ${resolution.title}`}>
                Vote Now
              </Link>
            </Button>
          </li>
        ))}
      </ul>
    </DashboardPanel>
  );
}
