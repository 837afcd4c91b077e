import { zodResolver } from "@hookform/resolvers/zod";
import { Sparkles } from "lucide-react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { CompanyMember } from "@shared/companies";
import type { CreateDocumentInput, DocumentObject } from "@shared/documents";
import { displayName } from "@shared/people";
import { roleLabel } from "@shared/roles";
import { meetingEndFrom } from "@shared/meeting-model";
import { formatAgenda, meetingFormSchema, type MeetingFormValues } from "@shared/meetings";
import { DraftNotice } from "@/components/draft-notice";
import { MeetingWhenWhereFields } from "@/components/meeting-when-where-fields";
import { Button } from "@/components/ui/button";
import { FormDialogFooter } from "@/components/form-dialog-footer";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { localStart } from "@/lib/date-time-input";
import { usePreferences } from "@/lib/preferences/get-preferences";
import { useFormDraft } from "@/lib/use-form-draft";
import { useScheduleMeeting } from "@/features/meetings/api/create-meeting";
import { useGenerateAgenda } from "@/features/meetings/api/generate-agenda";
import { defaultMeetingValues, toMeetingDocument } from "@/features/meetings/lib/meeting-form";

export const SCHEDULE_FAILED_TEXT = "Failed to schedule the meeting. Please try again.";
export const AGENDA_FAILED_TEXT = "Failed to generate agenda. Please try again or enter agenda items manually.";
export const AGENDA_FROM_AI_TEXT = "AI-generated agenda items have been added to the meeting.";
export const AGENDA_FROM_TEMPLATE_TEXT = "No AI service is configured, so a standard board agenda has been added to the meeting.";

/** The company's members, to choose the participants from, as the page loads them. */
export interface ParticipantChoices {
  data: CompanyMember[] | undefined;
  isPending: boolean;
  isError: boolean;
}

export interface ScheduleMeetingDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Who may be invited (the companies feature's members, loaded by the page while the modal is open). */
  members: ParticipantChoices;
  /** Creates the meeting's document (the documents feature's call, handed in by the page). */
  createDocument: (body: CreateDocumentInput) => Promise<DocumentObject>;
  /** 'Schedule New Board Meeting' unless told; the AGM reminder opens it as 'Schedule Annual General Meeting'. */
  title?: string;
  initialValues?: Partial<MeetingFormValues>;
  /** The clock for the date and time defaults (tests pass their own). */
  now?: () => Date;
}

/** The Schedule meeting modal. The form is mounted afresh on each opening. */
export function ScheduleMeetingDialog({
  open,
  onOpenChange,
  members,
  createDocument,
  title = "Schedule New Board Meeting",
  initialValues,
  now,
}: ScheduleMeetingDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Set the date, place and agenda, and choose who attends.</DialogDescription>
        </DialogHeader>
        <ScheduleMeetingForm
          members={members}
          createDocument={createDocument}
          initialValues={initialValues}
          now={now ?? (() => new Date())}
          onDone={() => onOpenChange(false)}
          onCancel={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

function ScheduleMeetingForm({
  members,
  createDocument,
  initialValues,
  now,
  onDone,
  onCancel,
}: Pick<ScheduleMeetingDialogProps, "members" | "createDocument"> & {
  initialValues?: Partial<MeetingFormValues>;
  now: () => Date;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { user } = useCurrentUser();
  const createMeeting = useScheduleMeeting(createDocument);
  const generateAgenda = useGenerateAgenda();
  const participantsLabelId = useId();
  // useForm reads its defaults once, when the form mounts: that is on each opening, so "time now" is fresh.
  const form = useForm<MeetingFormValues>({
    resolver: zodResolver(meetingFormSchema),
    defaultValues: defaultMeetingValues(now(), initialValues),
  });
  // Auto-save Drafts: an unsent meeting is kept per user and company, and offered back on the next opening.
  const { preferences, isLoaded } = usePreferences();
  const draftKey = user && isLoaded && preferences.autoSaveDrafts ? `meeting:new:${user.id}:${user.companyId ?? "none"}` : null;
  const draft = useFormDraft(form, draftKey, now);

  async function onSubmit(values: MeetingFormValues) {
    if (!user) return;
    const start = localStart(values.date, values.time);
    if (!start) {
      form.setError("date", { message: "Date is required" });
      return;
    }
    try {
      await createMeeting.mutateAsync(toMeetingDocument(values, start, user));
      draft.clear();
      toast({ title: "Meeting scheduled", description: "The board meeting has been successfully scheduled." });
      onDone();
    } catch (error) {
      toast({ title: "Error", description: serverMessageOf(error) ?? SCHEDULE_FAILED_TEXT, variant: "destructive" });
    }
  }

  async function onGenerate() {
    if (!user) return;
    const values = form.getValues();
    if (!values.title.trim()) {
      form.setError("title", { message: "Please provide a meeting title first" }, { shouldFocus: true });
      return;
    }
    form.clearErrors("title");
    const start = localStart(values.date, values.time) ?? now();
    try {
      const agenda = await generateAgenda.mutateAsync({
        title: values.title.trim(),
        date: start.toISOString(),
        endDate: meetingEndFrom(start).toISOString(),
        location: values.location.trim(),
        status: "draft",
        companyId: user.companyId ?? undefined,
        createdBy: user.id,
      });
      form.setValue("agenda", formatAgenda(agenda.items), { shouldDirty: true, shouldValidate: true });
      toast({ title: "Agenda generated", description: agenda.source === "ai" ? AGENDA_FROM_AI_TEXT : AGENDA_FROM_TEMPLATE_TEXT });
    } catch {
      toast({ title: "Error", description: AGENDA_FAILED_TEXT, variant: "destructive" });
    }
  }

  const scheduling = createMeeting.isPending;
  const generating = generateAgenda.isPending;

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label="Schedule meeting">
        {draft.offered && <DraftNotice savedAt={draft.offered.savedAt} onRestore={draft.restore} onDiscard={draft.discard} />}
        <LabeledField control={form.control} name="title" label="Meeting title">
          {(field) => <Input placeholder="Q3 Board Meeting" autoComplete="off" {...field} />}
        </LabeledField>
        <MeetingWhenWhereFields control={form.control} />
        <FormField
          control={form.control}
          name="agenda"
          render={({ field }) => (
            <FormItem>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <FormLabel>Agenda</FormLabel>
                <Button type="button" variant="outline" size="sm" onClick={() => void onGenerate()} disabled={generating}>
                  <Sparkles aria-hidden />
                  {generating ? "Generating..." : "Generate with AI"}
                </Button>
              </div>
              <FormControl>
                <Textarea rows={4} placeholder="Agenda items, one per line" {...field} value={field.value ?? ""} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="participants"
          render={({ field }) => {
            const selected = new Set(field.value ?? []);
            const toggle = (id: string, checked: boolean) => {
              const next = new Set(selected);
              if (checked) next.add(id);
              else next.delete(id);
              field.onChange([...next]);
            };
            return (
              <FormItem>
                <p id={participantsLabelId} className="text-sm leading-none font-medium">
                  Participants
                </p>
                <div
                  role="group"
                  aria-labelledby={participantsLabelId}
                  className="max-h-48 overflow-y-auto rounded-md border bg-card p-2"
                  data-testid="participants-list"
                >
                  {members.isPending ? (
                    <p className="p-2 text-sm text-muted-foreground">Loading members...</p>
                  ) : members.isError ? (
                    <p className="p-2 text-sm text-destructive">The company's members could not be loaded.</p>
                  ) : (members.data ?? []).length === 0 ? (
                    <p className="p-2 text-sm text-muted-foreground">No members yet.</p>
                  ) : (
                    <ul className="grid gap-1">
                      {(members.data ?? []).map((member) => {
                        const id = String(member.id);
                        const checkboxId = `${participantsLabelId}-${id}`;
                        return (
                          <li key={id} className="flex items-center gap-3 rounded-md px-2 py-1.5 hover:bg-accent">
                            <Checkbox
                              id={checkboxId}
                              checked={selected.has(id)}
                              onCheckedChange={(checked) => toggle(id, checked === true)}
                            />
                            <label
                              htmlFor={checkboxId}
                              className="flex min-w-0 flex-1 cursor-pointer flex-wrap items-baseline gap-x-2 text-sm"
                            >
                              <span className="truncate font-medium">{displayName(member)}</span>
                              <span className="text-xs text-muted-foreground">{roleLabel(member.role)}</span>
                            </label>
                          </li>
                        );
                      })}
                    </ul>
                  )}
                </div>
                <FormMessage />
              </FormItem>
            );
          }}
        />
        <FormField
          control={form.control}
          name="sendNotifications"
          render={({ field }) => (
            <FormItem className="flex items-center gap-3">
              <FormControl>
                <Checkbox checked={field.value ?? false} onCheckedChange={(checked) => field.onChange(checked === true)} />
              </FormControl>
              <FormLabel className="font-normal">Send notifications to participants</FormLabel>
            </FormItem>
          )}
        />
        <FormDialogFooter onCancel={onCancel} pending={scheduling} submitLabel="Schedule Meeting" pendingLabel="Scheduling..." />
      </form>
    </Form>
  );
}
