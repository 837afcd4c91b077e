import { CalendarDays, Check, RotateCcw, UserRound } from "lucide-react";
import { lazy, Suspense, useId } from "react";
import type { ActionItem } from "@shared/meeting-record";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useNow } from "@/lib/use-now";
import { useMeetingActionItems, useUpdateActionItem } from "@/features/meeting-record/api/action-items";
import { earliestDueDate, formatDueDate, isOverdue, localToday } from "@/features/meeting-record/lib/action-item-dates";

// The add form and its validation load only for those who may add items.
const ActionItemForm = lazy(async () => ({
  default: (await import("@/features/meeting-record/components/action-item-form")).ActionItemForm,
}));

export interface MeetingActionItemsProps {
  meetingId: number;
  /** The meeting's start (ISO or a Date): an item may not be due before its UTC calendar date. */
  meetingStartsAt: string | Date;
  /** The company's members: who an item may be given to (observers too). */
  members: readonly { id: number; name: string }[];
  /** Founders, admins and the meeting's creator (`canKeepMeetingRecord`): they see the add form. */
  canManage: boolean;
  /** Founders and admins (`can(role, "editActionItems")`): they mark anyone's item done or open. */
  canEditAny: boolean;
  /** The signed-in user: an item's owner marks it done or open. */
  currentUserId: number;
}

/**
 * The meeting page's "Action items": what the meeting gave, with owner, due date and status (overdue marked),
 * a "Mark done"/"Reopen" button for the item's owner and for founders and admins, and the add form for keepers.
 */
export function MeetingActionItems({ meetingId, meetingStartsAt, members, canManage, canEditAny, currentUserId }: MeetingActionItemsProps) {
  const headingId = useId();
  const items = useMeetingActionItems(meetingId);
  const today = localToday(useNow());

  return (
    <section aria-labelledby={headingId} className="grid gap-4">
      <h2 id={headingId} className="text-lg font-semibold">
        Action items
      </h2>
      {items.isPending ? (
        <div role="status" aria-label="Loading action items" className="grid gap-3">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      ) : items.isError ? (
        <p className="text-sm text-destructive">The action items could not be loaded.</p>
      ) : items.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">No action items yet.</p>
      ) : (
        <ul className="grid gap-3">
          {items.data.map((item) => (
            <ActionItemRow
              key={item.id}
              item={item}
              overdue={isOverdue(item, today)}
              canToggle={canEditAny || item.ownerId === currentUserId}
            />
          ))}
        </ul>
      )}
      {canManage && (
        <Suspense fallback={null}>
          <ActionItemForm meetingId={meetingId} earliestDue={earliestDueDate(meetingStartsAt)} members={members} />
        </Suspense>
      )}
    </section>
  );
}

function ActionItemRow({ item, overdue, canToggle }: { item: ActionItem; overdue: boolean; canToggle: boolean }) {
  const update = useUpdateActionItem();
  const done = item.status === "done";

  async function toggle() {
    try {
      await update.mutateAsync({ id: item.id, body: { status: done ? "open" : "done" } });
    } catch (error) {
      toast({
        title: "The action item was not changed",
        description: serverMessageOf(error) ?? "Please try again.",
        variant: "destructive",
      });
    }
  }

  return (
    <li className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <p className={done ? "break-words text-muted-foreground line-through" : "font-medium break-words"}>{item.title}</p>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <UserRound className="size-4 shrink-0" aria-hidden />
          <span className="break-words">{item.ownerName}</span>
        </p>
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <CalendarDays className="size-4 shrink-0" aria-hidden />
          Due {formatDueDate(item.dueDate)}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {done ? <Badge variant="success">Done</Badge> : <Badge variant="outline">Open</Badge>}
        {overdue && <Badge variant="destructive">Overdue</Badge>}
        {canToggle && (
          <Button variant="outline" size="sm" disabled={update.isPending} onClick={() => void toggle()}>
            {done ? <RotateCcw aria-hidden /> : <Check aria-hidden />}
            {done ? "Reopen" : "Mark done"}
            <span className="sr-only">: {item.title}</span>
          </Button>
        )}
      </div>
    </li>
  );
}
