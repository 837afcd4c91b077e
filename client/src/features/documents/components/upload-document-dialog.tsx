import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { defaultUploadCategory, uploadCategories, uploadCategoryLabels } from "@shared/documents";
import { FormDialogFooter } from "@/components/form-dialog-footer";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { SelectField } from "@/components/ui/select-fields";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { applyServerErrors } from "@/lib/form-errors";
import { FileField, UploadProgress } from "@/features/documents/components/file-field";
import { useUploadDocument } from "@/features/documents/api/upload-document";

export const uploadValidationMessage = "Please fill in all required fields and select a file";

/** The upload form: a title (trimmed, required), one of the categories, a file, an optional description. */
const uploadFormSchema = z.object({
  title: z.string().trim().min(1, "Title is required").max(300, "Title must be at most 300 characters"),
  category: z.enum(uploadCategories),
  file: z.custom<File | null>((value) => value instanceof File, "Choose a file to upload"),
  description: z.string().max(10000, "Description must be at most 10000 characters"),
});
type UploadFormInput = z.input<typeof uploadFormSchema>;
type UploadFormValues = z.output<typeof uploadFormSchema>;

const categoryOptions = uploadCategories.map((value) => ({ value, label: uploadCategoryLabels[value] }));
const emptyUpload: UploadFormInput = { title: "", category: defaultUploadCategory, file: null, description: "" };

/** The Upload Document dialog: title, category (General by default), a file of an accepted type, a description; a progress bar while the bytes travel. */
export function UploadDocumentDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadDocument();
  const form = useForm<UploadFormInput, unknown, UploadFormValues>({ resolver: zodResolver(uploadFormSchema), defaultValues: emptyUpload });
  const file = form.watch("file");

  const reset = () => {
    form.reset(emptyUpload);
    setProgress(null);
  };
  const changeOpen = (next: boolean) => {
    if (!next && upload.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = ({ title, category, file, description }: UploadFormValues) => {
    if (!file) return;
    setProgress(0);
    upload.mutate(
      {
        name: title,
        category,
        description: description.trim() || undefined,
        file,
        onProgress: (fraction) => setProgress(Math.round(fraction * 100)),
      },
      {
        onSuccess: () => {
          toast({ title: "Document uploaded", description: `${title} was added to the library.` });
          reset();
          onOpenChange(false);
        },
        onError: (error) => {
          setProgress(null);
          applyServerErrors(form, error, { rename: { name: "title" } });
          toast({
            title: "Upload failed",
            description: serverMessageOf(error) ?? "The document could not be uploaded.",
            variant: "destructive",
          });
        },
      },
    );
  };
  // A missing title or file is said once, in a toast, as well as by the field.
  const refuse = () => toast({ title: "Error", description: uploadValidationMessage, variant: "destructive" });

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Upload Document</DialogTitle>
          <DialogDescription>
            Add a file to your board&apos;s document repository (PDF, Word, text or image, up to 20 MB).
          </DialogDescription>
        </DialogHeader>
        <Form {...form}>
          <form className="grid gap-4" onSubmit={form.handleSubmit(submit, refuse)} noValidate>
            <LabeledField control={form.control} name="title" label="Title">
              {(field) => <Input maxLength={300} placeholder="Q3 financial report" autoComplete="off" {...field} />}
            </LabeledField>
            <SelectField
              control={form.control}
              name="category"
              label="Category"
              options={categoryOptions}
              placeholder="Choose a category"
            />
            <FileField control={form.control} name="file" label="File" file={file} />
            <LabeledField control={form.control} name="description" label="Description (optional)">
              {(field) => <Textarea rows={3} maxLength={10000} {...field} />}
            </LabeledField>
            <UploadProgress progress={progress} />
            <FormDialogFooter
              onCancel={() => changeOpen(false)}
              cancelDisabled={upload.isPending}
              pending={upload.isPending}
              submitLabel="Upload"
              pendingLabel="Uploading..."
            />
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
