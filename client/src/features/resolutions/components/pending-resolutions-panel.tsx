import { useMemo } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatLongDate } from "@/lib/format";
import { useNow } from "@/lib/use-now";
import { usePendingResolutions } from "@/features/resolutions/api/get-pending-resolutions";

/** The dashboard's Pending Resolutions: open resolutions, soonest deadline first, each with 'Vote Now'. */
export function PendingResolutionsPanel() {
  const pending = usePendingResolutions();
  const now = useNow();
  // Loaded once: one whose deadline passes while the page is open leaves the panel.
  const open = useMemo(() => (pending.data ?? []).filter((resolution) => new Date(resolution.deadline).getTime() > now.getTime()), [pending.data, now]);

  return (
    <Card role="region" aria-labelledby="pending-resolutions-heading">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle id="pending-resolutions-heading" role="heading" aria-level={2} className="text-lg">
          Pending Resolutions
        </CardTitle>
        <Button asChild variant="link" size="sm" className="px-0">
          <Link href="/resolutions">View all</Link>
        </Button>
      </CardHeader>
      <CardContent>
        {pending.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading pending resolutions">
            {[0, 1].map((key) => (
              <Skeleton key={key} className="h-16 w-full" />
            ))}
          </div>
        ) : pending.isError ? (
          <p className="text-sm text-destructive">The pending resolutions could not be loaded.</p>
        ) : open.length === 0 ? (
          <p className="text-sm text-muted-foreground">No pending resolutions.</p>
        ) : (
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
        )}
      </CardContent>
    </Card>
  );
}
