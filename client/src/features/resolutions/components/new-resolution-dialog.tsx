import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { resolutionTypeHints, resolutionTypes } from "@shared/resolutions";
import { DraftNotice } from "@/components/draft-notice";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { FormSelect } from "@/components/ui/select-fields";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { applyServerErrors } from "@/lib/form-errors";
import { usePreferences } from "@/lib/preferences/get-preferences";
import { useFormDraft } from "@/lib/use-form-draft";
import { useCreateResolution } from "@/features/resolutions/api/create-resolution";
import { DocumentPicker, type PickableDocument } from "@/features/resolutions/components/document-picker";
import {
  CREATE_FAILED_TEXT,
  DEADLINE_PAST_MESSAGE,
  MISSING_TEXT,
  MISSING_TITLE,
  emptyResolutionForm,
  resolutionDraftChecks,
  resolutionFormSchema,
  toCreateResolution,
  todayInput,
  type ResolutionFormValues,
} from "@/features/resolutions/lib/resolution-form";

const typeOptions = resolutionTypes.map((type) => ({ value: type, label: type }));

export interface NewResolutionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The library's documents to attach (the page loads them while the dialog is open). */
  documents: { data: PickableDocument[] | undefined; isLoading: boolean; isError: boolean };
  /** The clock for "not before today" (tests pass their own). */
  now?: () => Date;
}

/** The New Resolution dialog; its form is mounted afresh on each opening. */
export function NewResolutionDialog({ open, onOpenChange, documents, now = () => new Date() }: NewResolutionDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>New Resolution</DialogTitle>
          <DialogDescription>Propose a resolution for the board to vote on before its deadline.</DialogDescription>
        </DialogHeader>
        <NewResolutionForm documents={documents} now={now} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function NewResolutionForm({
  documents,
  now,
  onDone,
}: {
  documents: NewResolutionDialogProps["documents"];
  now: () => Date;
  onDone: () => void;
}) {
  const create = useCreateResolution();
  const form = useForm<ResolutionFormValues>({ resolver: zodResolver(resolutionFormSchema), defaultValues: emptyResolutionForm() });
  // Auto-save Drafts: an unsent resolution is kept per user and company, and offered back on the next opening.
  const { user } = useCurrentUser();
  const { preferences, isLoaded } = usePreferences();
  const draftKey = user && isLoaded && preferences.autoSaveDrafts ? `resolution:new:${user.id}:${user.companyId ?? "none"}` : null;
  const draft = useFormDraft(form, draftKey, now, resolutionDraftChecks);
  const today = todayInput(now());
  const type = form.watch("type");

  async function onSubmit(values: ResolutionFormValues) {
    if (values.deadline < todayInput(now())) {
      form.setError("deadline", { message: DEADLINE_PAST_MESSAGE }, { shouldFocus: true });
      return;
    }
    try {
      await create.mutateAsync(toCreateResolution(values));
      draft.clear();
      toast({ title: "Resolution created", description: "The board has been asked to vote." });
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
      toast({ title: "Error", description: CREATE_FAILED_TEXT, variant: "destructive" });
    }
  }

  const onInvalid = () => toast({ title: MISSING_TITLE, description: MISSING_TEXT, variant: "destructive" });

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit, onInvalid)} noValidate className="grid gap-4" aria-label="New resolution">
        {draft.offered && <DraftNotice savedAt={draft.offered.savedAt} onRestore={draft.restore} onDiscard={draft.discard} />}
        <LabeledField control={form.control} name="title" label="Title">
          {(field) => <Input placeholder="Approve the FY27 budget" autoComplete="off" {...field} />}
        </LabeledField>
        <LabeledField control={form.control} name="description" label="Description">
          {(field) => <Textarea rows={4} placeholder="What the board is asked to decide" {...field} />}
        </LabeledField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="type"
            render={({ field }) => (
              <FormItem hasDescription>
                <FormLabel>Type</FormLabel>
                <FormSelect field={field} options={typeOptions} placeholder="Select a type" />
                <FormDescription>{type ? resolutionTypeHints[type] : "Ordinary, Special (75%) or Unanimous."}</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="deadline"
            render={({ field }) => (
              <FormItem>
                <FormLabel>Deadline</FormLabel>
                <FormControl>
                  <Input type="date" min={today} {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <FormField
          control={form.control}
          name="documentIds"
          render={({ field }) => (
            <DocumentPicker
              documents={documents.data}
              isLoading={documents.isLoading}
              isError={documents.isError}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        <DialogFooter>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? "Creating..." : "Create Resolution"}
          </Button>
        </DialogFooter>
      </form>
    </Form>
  );
}
