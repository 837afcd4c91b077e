import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { rescheduleFormSchema, type MeetingUpdateInput, type RescheduleFormValues } from "@shared/agenda";
import { MeetingWhenWhereFields } from "@/components/meeting-when-where-fields";
import { FormDialogFooter } from "@/components/form-dialog-footer";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { localStart } from "@/lib/date-time-input";
import { rescheduleDefaults, toRescheduleUpdate } from "@/features/meeting-record/lib/reschedule";

/** 'Reschedule': a new date, time and place. `onSubmit` sends the change and resolves once it is done (or failed). */
export function RescheduleDialog({
  meeting,
  onSubmit,
  onClose,
}: {
  meeting: { title: string; date: Date; location: string };
  onSubmit: (update: MeetingUpdateInput) => Promise<boolean>;
  onClose: () => void;
}) {
  const form = useForm<RescheduleFormValues>({ resolver: zodResolver(rescheduleFormSchema), defaultValues: rescheduleDefaults(meeting) });

  async function submit(values: RescheduleFormValues) {
    const start = localStart(values.date, values.time);
    if (!start) {
      form.setError("date", { message: "Date is required" }, { shouldFocus: true });
      return;
    }
    if (await onSubmit(toRescheduleUpdate(values, start))) onClose();
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Reschedule meeting</DialogTitle>
          <DialogDescription className="break-words">Choose a new date, time and place for “{meeting.title}”.</DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form onSubmit={form.handleSubmit(submit)} noValidate className="grid gap-4" aria-label="Reschedule meeting">
            <MeetingWhenWhereFields control={form.control} />
            <FormDialogFooter onCancel={onClose} pending={form.formState.isSubmitting} submitLabel="Reschedule" pendingLabel="Saving…" />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
