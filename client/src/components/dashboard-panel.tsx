import { useId, type ReactNode } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";

export interface DashboardPanelProps {
  /** The panel's h2; it also names the panel's region for screen readers. */
  title: string;
  /** Where 'View all' leads; no link without it. */
  viewAllHref?: string;
  /** Something else for the header's right-hand side (a 'New Meeting' button). */
  action?: ReactNode;
  /**
   * The query the rows come from: while it is pending skeleton rows stand in for them, and when it failed
   * `errorText` says so; without one the children are the panel (Quick Actions). Placeholder data counts as
   * loaded: a panel that does not show it as rows says `loading` meanwhile.
   */
  query?: { isPending: boolean; isError: boolean };
  /** Skeleton rows stand in even though the query has answered (a panel that does not show placeholder data). */
  loading?: boolean;
  errorText?: string;
  /** There is nothing to list: `emptyText` says so. */
  empty?: boolean;
  emptyText?: string;
  /** How many skeleton rows stand in while loading, and their height class. */
  skeletonRows?: number;
  skeletonClassName?: string;
  className?: string;
  children?: ReactNode;
}

/**
 * One dashboard panel: a card named by its heading, an optional 'View all' link, and the four states of a
 * list read from the server — loading (skeleton rows, announced as "Loading <title>"), failed, empty, rows.
 */
export function DashboardPanel({
  title,
  viewAllHref,
  action,
  query,
  loading = false,
  errorText = `The ${title.toLowerCase()} could not be loaded.`,
  empty = false,
  emptyText,
  skeletonRows = 3,
  skeletonClassName = "h-16",
  className,
  children,
}: DashboardPanelProps) {
  const headingId = useId();
  return (
    // A phone gets tighter margins, so its narrow column goes to the rows rather than to padding.
    <Card role="region" aria-labelledby={headingId} className={cn("min-w-0 gap-4 py-5 sm:gap-6 sm:py-6", className)}>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 px-4 sm:px-6">
        <h2 id={headingId} className="text-lg leading-tight font-semibold">
          {title}
        </h2>
        {action}
        {viewAllHref && (
          <Button asChild variant="link" size="sm" className="px-0">
            <Link href={viewAllHref}>View all</Link>
          </Button>
        )}
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        {query?.isPending || loading ? (
          <div className="grid gap-3" role="status" aria-label={`Loading ${title.toLowerCase()}`}>
            {Array.from({ length: skeletonRows }, (_, key) => (
              <Skeleton key={key} className={cn("w-full", skeletonClassName)} />
            ))}
          </div>
        ) : query?.isError ? (
          <p className="text-sm text-destructive">{errorText}</p>
        ) : empty ? (
          <p className="text-sm text-muted-foreground">{emptyText}</p>
        ) : (
          children
        )}
      </CardContent>
    </Card>
  );
}
