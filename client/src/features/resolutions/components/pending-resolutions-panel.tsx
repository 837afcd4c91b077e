import { useMemo } from "react";
import type { PendingResolutionSummary } from "@shared/resolutions";
import { Link } from "wouter";
import { DashboardPanel } from "@/components/dashboard-panel";
import { Button } from "@/components/ui/button";
import { formatLongDate } from "@/lib/format";
import { useNow } from "@/lib/use-now";
import { usePendingResolutions } from "@/features/resolutions/api/get-pending-resolutions";

/** A written resolution the user has still to sign asks for the signature; one they signed (or cannot sign) opens. */
function actionOf(resolution: PendingResolutionSummary): string {
  if (resolution.procedure !== "written") return "Vote Now";
  return resolution.awaitingYourSignature ? "Awaiting your signature" : "View";
}

/**
 * The dashboard's Pending Resolutions: open resolutions, soonest deadline first, each with 'Vote Now' (a written
 * resolution: 'Awaiting your signature' while the user has still to sign it).
 */
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
                {resolution.procedure === "written" ? "Written resolution" : `Created on ${formatLongDate(resolution.createdAt)}`} •{" "}
                {resolution.procedure === "written" ? "Lapses" : "Expires"}: {formatLongDate(resolution.deadline)}
              </p>
            </div>
            <Button
              asChild
              size="sm"
              variant={resolution.procedure === "written" && !resolution.awaitingYourSignature ? "outline" : "default"}
            >
              <Link href={`/resolutions/${resolution.id}`} aria-label={`${actionOf(resolution)}: ${resolution.title}`}>
                {actionOf(resolution)}
              </Link>
            </Button>
          </li>
        ))}
      </ul>
    </DashboardPanel>
  );
}
