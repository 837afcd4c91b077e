import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { formatTime } from "@/lib/format";
import { useAgenda } from "@/features/meetings/api/get-agenda";
import { memberName } from "@/features/meetings/lib/meeting-sources";
import type { AgendaLookups } from "@/features/meetings/components/agenda-item-view";

/** 'View Agenda': the items at a glance, "1. Title (15 min)" with start time and presenter. */
export function AgendaDialog({
  open,
  onOpenChange,
  meeting,
  lookups,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  meeting: { id: number; title: string; agenda: string };
  lookups: AgendaLookups;
}) {
  const agenda = useAgenda(meeting.id);
  const items = agenda.data?.items ?? [];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="grid max-h-[90dvh] grid-rows-[auto_minmax(0,1fr)] sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Agenda</DialogTitle>
          <DialogDescription className="break-words">{meeting.title}</DialogDescription>
        </DialogHeader>
        {agenda.isPending ? (
          <div className="grid gap-2" role="status" aria-label="Loading agenda">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : items.length > 0 ? (
          <ol
            tabIndex={0}
            aria-label="Agenda items"
            className="grid min-h-0 gap-3 overflow-y-auto rounded-md border bg-muted/40 p-4 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            {items.map((item, index) => (
              <li key={item.id} className="grid gap-0.5">
                <span className="font-medium break-words">{`${index + 1}. ${item.title} (${item.durationMinutes} min)`}</span>
                <span className="text-muted-foreground">
                  {formatTime(item.startsAt)}
                  {item.presenterId !== null && !lookups.loadingNames && ` · ${memberName(lookups.members, item.presenterId)}`}
                </span>
              </li>
            ))}
          </ol>
        ) : meeting.agenda.trim() && agenda.isError ? (
          // The items could not be read: the agenda as the meeting's own text, which mirrors them.
          <div
            tabIndex={0}
            role="region"
            aria-label="Agenda text"
            className="max-h-[60dvh] overflow-y-auto rounded-md border bg-muted/40 p-4 text-sm leading-relaxed break-words whitespace-pre-wrap outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            data-testid="agenda-text"
          >
            {meeting.agenda}
          </div>
        ) : agenda.isError ? (
          <p className="text-sm text-destructive">The agenda could not be loaded.</p>
        ) : (
          <p className="text-sm text-muted-foreground">No agenda items yet</p>
        )}
      </DialogContent>
    </Dialog>
  );
}
