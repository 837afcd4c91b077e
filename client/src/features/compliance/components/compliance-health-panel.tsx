import { Link } from "wouter";
import { complianceManagePath, complianceProgressTone, type ComplianceGroup } from "@shared/compliance";
import { DashboardPanel } from "@/components/dashboard-panel";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { Skeleton } from "@/components/ui/skeleton";
import { formatLongDate } from "@/lib/format";
import { useCompliance } from "@/features/compliance/api/get-compliance";
import { ComplianceStatusBadge } from "@/features/compliance/components/compliance-status-badge";

/** The bar's colour by tone, from the theme's status colours (each has a light and a dark shade). */
const indicatorByTone = {
  red: "bg-destructive",
  yellow: "bg-warning",
  green: "bg-success",
} as const;

/**
 * The dashboard's Compliance Health: one card per group (Meetings, Documents, Resolutions) with its score as
 * a coloured bar and a number, its rules with their status and due date, and a Manage link. While the
 * verdicts load, the three cards stand in their places with placeholder rows.
 */
export function ComplianceHealthPanel({ className }: { className?: string }) {
  const compliance = useCompliance();
  const groups = compliance.data ?? [];
  const loading = compliance.isPending || compliance.isPlaceholderData;

  return (
    <DashboardPanel
      title="Compliance Health"
      query={compliance}
      errorText="The compliance health could not be loaded."
      empty={!loading && groups.length === 0}
      emptyText="No compliance checks yet."
      className={className}
    >
      <ul className="grid gap-4 lg:grid-cols-3" aria-busy={loading || undefined}>
        {groups.map((group) => (
          <GroupCard key={group.name} group={group} loading={loading} />
        ))}
      </ul>
    </DashboardPanel>
  );
}

function GroupCard({ group, loading }: { group: ComplianceGroup; loading: boolean }) {
  const tone = complianceProgressTone(group.progress);
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-lg border p-4">
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="font-medium">{group.name}</h3>
        {loading ? (
          <span className="text-sm text-muted-foreground">Checking…</span>
        ) : (
          <span className="text-sm font-semibold tabular-nums" aria-hidden>
            {group.progress}%
          </span>
        )}
      </div>
      {loading ? (
        <Skeleton className="h-2 w-full rounded-full" />
      ) : (
        <Progress
          value={group.progress}
          aria-label={`${group.name} compliance`}
          getValueLabel={(value) => `${value}% complete`}
          data-tone={tone}
          indicatorClassName={indicatorByTone[tone]}
        />
      )}
      {loading ? (
        <div className="grid gap-2">
          {[0, 1].map((key) => (
            <Skeleton key={key} className="h-10 w-full" />
          ))}
        </div>
      ) : (
        <ul className="grid gap-2">
          {group.items.map((item) => (
            <li key={item.id} className="grid gap-1 text-sm">
              <span className="font-medium break-words">{item.title}</span>
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <ComplianceStatusBadge status={item.status} />
                {item.dueDate && <span className="text-muted-foreground">Due {formatLongDate(item.dueDate)}</span>}
              </div>
            </li>
          ))}
        </ul>
      )}
      {!loading && (
        <div className="mt-auto pt-1">
          <Button asChild variant="outline" size="sm">
            <Link href={complianceManagePath(group.items[0]?.category)} aria-label={`Manage ${group.name}`}>
              Manage
            </Link>
          </Button>
        </div>
      )}
    </li>
  );
}
