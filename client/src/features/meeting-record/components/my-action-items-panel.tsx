import { CalendarDays } from "lucide-react";
import { Link } from "wouter";
import { DashboardPanel } from "@/components/dashboard-panel";
import { Badge } from "@/components/ui/badge";
import { useMyOpenActionItems } from "@/features/meeting-record/api/action-items";
import { formatDueDate, isOverdue, localToday } from "@/features/meeting-record/lib/action-item-dates";
import { useNow } from "@/lib/use-now";

/**
 * The dashboard's "My action items": the caller's open items in the active company, overdue first (the server
 * lists the soonest due first), each a link to the meeting that gave it.
 */
export function MyActionItemsPanel({ className }: { className?: string }) {
  const items = useMyOpenActionItems();
  const today = localToday(useNow());
  const list = items.data ?? [];

  return (
    <DashboardPanel
      title="My action items"
      query={items}
      empty={list.length === 0}
      emptyText="You have no open action items."
      skeletonRows={2}
      className={className}
    >
      <ul className="grid gap-3">
        {list.map((item) => {
          const overdue = isOverdue(item, today);
          return (
            <li key={item.id}>
              <Link
                href={`/meetings/${item.meetingId}`}
                className="flex flex-col gap-2 rounded-lg border bg-card p-4 outline-none transition-colors hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/60 sm:flex-row sm:items-start sm:justify-between"
              >
                <div className="grid min-w-0 gap-1">
                  <p className="font-semibold break-words">{item.title}</p>
                  <p className="text-sm break-words text-muted-foreground">From {item.meetingTitle}</p>
                  <p className="flex items-center gap-2 text-sm text-muted-foreground">
                    <CalendarDays className="size-4 shrink-0" aria-hidden />
                    Due {formatDueDate(item.dueDate)}
                  </p>
                </div>
                {overdue && <Badge variant="destructive">Overdue</Badge>}
              </Link>
            </li>
          );
        })}
      </ul>
    </DashboardPanel>
  );
}
