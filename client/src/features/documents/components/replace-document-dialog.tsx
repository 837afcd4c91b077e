import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { changeNoteRequiredMessage, maxChangeNoteLength } from "@shared/paper-versions";
import { FormDialogFooter } from "@/components/form-dialog-footer";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { applyServerErrors } from "@/lib/form-errors";
import { useReplaceDocument } from "@/features/documents/api/versions";
import { FileField, UploadProgress } from "@/features/documents/components/file-field";

/** The Replace form: the new file and what changed (required, at most 500 characters). */
const replaceFormSchema = z.object({
  file: z.custom<File | null>((value) => value instanceof File, "Choose the new version's file"),
  note: z
    .string()
    .trim()
    .min(1, changeNoteRequiredMessage)
    .max(maxChangeNoteLength, `A change note holds at most ${maxChangeNoteLength} characters`),
});
type ReplaceFormInput = z.input<typeof replaceFormSchema>;
type ReplaceFormValues = z.output<typeof replaceFormSchema>;
const emptyReplace: ReplaceFormInput = { file: null, note: "" };

/** 'Replace' a paper's file with a new version: every earlier version is kept, and its readers see what changed. */
export function ReplaceDocumentDialog({
  document,
  onOpenChange,
}: {
  document: { id: number; name: string; version: number } | null;
  onOpenChange: (open: boolean) => void;
}) {
  const [progress, setProgress] = useState<number | null>(null);
  const replace = useReplaceDocument();
  const form = useForm<ReplaceFormInput, unknown, ReplaceFormValues>({
    resolver: zodResolver(replaceFormSchema),
    defaultValues: emptyReplace,
  });
  const file = form.watch("file");

  const reset = () => {
    form.reset(emptyReplace);
    setProgress(null);
  };
  const changeOpen = (next: boolean) => {
    if (!next && replace.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = ({ file, note }: ReplaceFormValues) => {
    if (!file || !document) return;
    setProgress(0);
    replace.mutate(
      { id: document.id, note, file, onProgress: (fraction) => setProgress(Math.round(fraction * 100)) },
      {
        onSuccess: (replaced) => {
          toast({ title: "New version uploaded", description: `${document.name} is now version ${replaced.version}.` });
          reset();
          onOpenChange(false);
        },
        onError: (error) => {
          setProgress(null);
          applyServerErrors(form, error);
          toast({
            title: "Replace failed",
            description: serverMessageOf(error) ?? "The new version could not be uploaded.",
            variant: "destructive",
          });
        },
      },
    );
  };

  return (
    <Dialog open={document !== null} onOpenChange={changeOpen}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Replace {document?.name}</DialogTitle>
          <DialogDescription>
            Upload version {(document?.version ?? 0) + 1}. Earlier versions are kept, and directors see what changed.
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form className="grid gap-4" onSubmit={form.handleSubmit(submit)} noValidate>
            <FileField control={form.control} name="file" label="New file" file={file} />
            <LabeledField
              control={form.control}
              name="note"
              label="What changed?"
              description={`Required; at most ${maxChangeNoteLength} characters.`}
            >
              {(field) => (
                <Textarea rows={3} maxLength={maxChangeNoteLength} placeholder="Updated the cash forecast on page 4" {...field} />
              )}
            </LabeledField>
            <UploadProgress progress={progress} />
            <FormDialogFooter
              onCancel={() => changeOpen(false)}
              cancelDisabled={replace.isPending}
              pending={replace.isPending}
              submitLabel="Upload new version"
              pendingLabel="Uploading..."
            />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
