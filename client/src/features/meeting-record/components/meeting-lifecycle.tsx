import { CalendarClock, CheckCircle2, XCircle } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type { MeetingUpdateInput } from "@shared/agenda";
import type { DocumentObject } from "@shared/documents";
import { Button } from "@/components/ui/button";
import { ConfirmDialogOnDemand } from "@/components/ui/confirm-dialog-on-demand";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useUpdateMeeting } from "@/features/meeting-record/api/update-meeting";

// The form and its validation load when 'Reschedule' is pressed, the confirmation (Radix's alert dialog) when 'Cancel
// meeting' is.
const RescheduleDialog = lazy(async () => ({
  default: (await import("@/features/meeting-record/components/reschedule-dialog")).RescheduleDialog,
}));

const doneMessages = {
  confirmed: { title: "Meeting confirmed", description: "The meeting is confirmed." },
  cancelled: { title: "Meeting cancelled", description: "The meeting has been cancelled." },
  rescheduled: { title: "Meeting rescheduled", description: "The meeting's new date, time and place are saved." },
} as const;

export interface MeetingLifecycleProps {
  meeting: { id: number; title: string; date: Date; location: string; status: string };
  /** The meeting has started: it is no longer confirmed or cancelled, only rescheduled. */
  started: boolean;
  /** After the change is saved, with the meeting's document as the server answered it. */
  onChanged?: (meeting: DocumentObject) => Promise<unknown> | void;
}

/**
 * Confirm, Reschedule and Cancel meeting, for founders and admins (the page shows this only to them).
 * Confirming is for a pending meeting that has not started; a cancelled meeting is not changed again.
 */
export function MeetingLifecycle({ meeting, started, onChanged }: MeetingLifecycleProps) {
  const update = useUpdateMeeting(meeting.id, onChanged);
  const [dialog, setDialog] = useState<"reschedule" | "cancel" | null>(null);
  // Loaded when first asked for, then kept mounted so it closes (and gives focus back) as a dialog does.
  if (meeting.status === "cancelled") return null;

  /** Sends the change; true when it was saved. A refusal (a 409: the meeting is past or cancelled) is shown as a toast. */
  async function send(body: MeetingUpdateInput, done: keyof typeof doneMessages): Promise<boolean> {
    try {
      await update.mutateAsync(body);
      toast(doneMessages[done]);
      return true;
    } catch (error) {
      toast({ title: "The meeting was not changed", description: serverMessageOf(error) ?? "Please try again.", variant: "destructive" });
      return false;
    }
  }

  return (
    <>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap" role="group" aria-label="Manage meeting">
        {meeting.status === "pending" && !started && (
          <Button variant="outline" disabled={update.isPending} onClick={() => void send({ status: "confirmed" }, "confirmed")}>
            <CheckCircle2 aria-hidden />
            Confirm meeting
          </Button>
        )}
        <Button variant="outline" disabled={update.isPending} onClick={() => setDialog("reschedule")}>
          <CalendarClock aria-hidden />
          Reschedule
        </Button>
        {!started && (
          <Button
            variant="outline"
            className="text-destructive hover:text-destructive"
            disabled={update.isPending}
            onClick={() => setDialog("cancel")}
          >
            <XCircle aria-hidden />
            Cancel meeting
          </Button>
        )}
      </div>

      {dialog === "reschedule" && (
        <Suspense fallback={null}>
          <RescheduleDialog meeting={meeting} onSubmit={(body) => send(body, "rescheduled")} onClose={() => setDialog(null)} />
        </Suspense>
      )}

      <ConfirmDialogOnDemand
        open={dialog === "cancel"}
        title="Cancel this meeting?"
        description={<>“{meeting.title}” will be marked as cancelled and leave the upcoming meetings. This cannot be undone.</>}
        confirmLabel="Cancel meeting"
        cancelLabel="Keep meeting"
        pendingLabel="Cancelling…"
        pending={update.isPending}
        onConfirm={() => void send({ status: "cancelled" }, "cancelled").then((saved) => saved && setDialog(null))}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
