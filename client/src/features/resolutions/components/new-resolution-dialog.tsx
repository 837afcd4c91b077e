import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { resolutionTypeHints, resolutionTypes } from "@shared/resolutions";
import { writtenRuleWords, type WrittenRule } from "@shared/written-resolutions";
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
import { formatLongDate, formatTime } from "@/lib/format";
import { usePreferences } from "@/lib/preferences/get-preferences";
import { cn } from "@/lib/utils";
import { useFormDraft } from "@/lib/use-form-draft";
import { useCreateResolution } from "@/features/resolutions/api/create-resolution";
import { DocumentPicker, type PickableDocument } from "@/features/resolutions/components/document-picker";
import {
  CREATE_FAILED_TEXT,
  DEADLINE_PAST_MESSAGE,
  MISSING_TEXT,
  MISSING_TITLE,
  emptyResolutionForm,
  lapseTime,
  resolutionDraftChecks,
  resolutionFormSchema,
  toCreateResolution,
  todayInput,
  type ResolutionFormValues,
} from "@/features/resolutions/lib/resolution-form";
import { Markdown } from "@/features/resolutions/lib/markdown";

const typeOptions = resolutionTypes.map((type) => ({ value: type, label: type }));
const procedureOptions = [
  { value: "vote", label: "Online vote", hint: "Each director votes yes, no or abstain by the closing date." },
  { value: "written", label: "Written resolution", hint: "Each director signs the exact text; decided by the board's rule." },
] as const;

export interface NewResolutionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The library's documents to attach (the page loads them while the dialog is open). */
  documents: { data: PickableDocument[] | undefined; isLoading: boolean; isError: boolean };
  /** The company's rule for written resolutions (undefined while it loads). */
  writtenRule?: WrittenRule;
  /** The clock for "not before today" (tests pass their own). */
  now?: () => Date;
}

/** The New Resolution dialog; its form is mounted afresh on each opening. */
export function NewResolutionDialog({ open, onOpenChange, documents, writtenRule, now = () => new Date() }: NewResolutionDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>New Resolution</DialogTitle>
          <DialogDescription>Propose a resolution for the board to decide by an online vote or in writing.</DialogDescription>
        </DialogHeader>
        <NewResolutionForm documents={documents} writtenRule={writtenRule} now={now} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function NewResolutionForm({
  documents,
  writtenRule,
  now,
  onDone,
}: {
  documents: NewResolutionDialogProps["documents"];
  writtenRule: WrittenRule | undefined;
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
  const procedure = form.watch("procedure");
  const written = procedure === "written";
  const [previewing, setPreviewing] = useState(false);
  const procedureId = useId();

  async function onSubmit(values: ResolutionFormValues) {
    if (values.procedure === "vote" && values.deadline < todayInput(now())) {
      form.setError("deadline", { message: DEADLINE_PAST_MESSAGE }, { shouldFocus: true });
      return;
    }
    try {
      await create.mutateAsync(toCreateResolution(values));
      draft.clear();
      toast({
        title: "Resolution created",
        description: values.procedure === "written" ? "The directors have been asked to sign." : "The board has been asked to vote.",
      });
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
        <FormField
          control={form.control}
          name="procedure"
          render={({ field }) => (
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium">Decide by</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {procedureOptions.map((option) => (
                  <label
                    key={option.value}
                    className={cn(
                      "grid cursor-pointer gap-0.5 rounded-md border p-3 text-sm has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50",
                      field.value === option.value ? "border-primary bg-primary/10" : "hover:bg-accent",
                    )}
                  >
                    {/* Named by its label alone; the hint is its description, so "the exact text" names only the text field. */}
                    <span className="flex items-center gap-2 font-medium">
                      <input
                        type="radio"
                        name={field.name}
                        value={option.value}
                        checked={field.value === option.value}
                        onChange={() => field.onChange(option.value)}
                        aria-labelledby={`${procedureId}-${option.value}`}
                        aria-describedby={`${procedureId}-${option.value}-hint`}
                        className="size-4 accent-primary"
                      />
                      <span id={`${procedureId}-${option.value}`}>{option.label}</span>
                    </span>
                    <span id={`${procedureId}-${option.value}-hint`} className="text-xs text-muted-foreground">
                      {option.hint}
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          )}
        />
        {written ? (
          <WrittenTextField previewing={previewing} onPreview={setPreviewing} source={form.watch("description")} />
        ) : (
          <LabeledField control={form.control} name="description" label="Description">
            {(field) => <Textarea rows={4} placeholder="What the board is asked to decide" {...field} />}
          </LabeledField>
        )}
        {written ? (
          <p className="rounded-md border bg-muted/40 p-3 text-sm" role="note">
            No type and no deadline:{" "}
            {writtenRule ? `under the company's rule, ${writtenRuleWords(writtenRule)}` : "the company's rule decides it"}.
            {writtenRule && (
              <>
                {" "}
                Proposed now, it lapses on {formatLongDate(lapseTime(now(), writtenRule.lapseDays))} at{" "}
                {formatTime(lapseTime(now(), writtenRule.lapseDays))} unless decided before.
              </>
            )}
          </p>
        ) : (
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
        )}
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

/** A written resolution's exact text, in Markdown, with a preview of it rendered. */
function WrittenTextField({ previewing, onPreview, source }: { previewing: boolean; onPreview: (on: boolean) => void; source: string }) {
  return (
    <FormField
      name="description"
      render={({ field }) => (
        <FormItem hasDescription>
          <div className="flex items-center justify-between gap-2">
            <FormLabel>The exact text</FormLabel>
            <Button type="button" variant="ghost" size="sm" aria-pressed={previewing} onClick={() => onPreview(!previewing)}>
              {previewing ? "Edit the text" : "Preview"}
            </Button>
          </div>
          {previewing ? (
            <div className="max-h-64 overflow-y-auto rounded-md border p-3 text-sm" aria-label="Preview of the text" role="region">
              {source.trim() ? <Markdown source={source} /> : <p className="text-muted-foreground">Nothing to preview yet.</p>}
            </div>
          ) : (
            <FormControl>
              <Textarea
                rows={8}
                className="font-mono text-sm"
                placeholder={"RESOLVED, that the Company adopt the FY27 budget.\n\n- Capex: ..."}
                {...field}
              />
            </FormControl>
          )}
          <FormDescription>Markdown. The text is frozen once proposed: a change means a new resolution.</FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
