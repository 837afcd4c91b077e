import { useId, useState, type FormEvent } from "react";
import { acceptAttribute, defaultUploadCategory, uploadCategories, uploadCategoryLabels } from "@shared/documents";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Progress } from "@/components/ui/progress";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { formatFileSize } from "@/lib/format";
import { useUploadDocument } from "@/features/documents/api/upload-document";

export const uploadValidationMessage = "Please fill in all required fields and select a file";

/** The Upload Document dialog: title, category (General by default), a file of an accepted type, a description; a progress bar while the bytes travel. */
export function UploadDocumentDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const [title, setTitle] = useState("");
  const [category, setCategory] = useState<string>(defaultUploadCategory);
  const [description, setDescription] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadDocument();

  const reset = () => {
    setTitle("");
    setCategory(defaultUploadCategory);
    setDescription("");
    setFile(null);
    setProgress(null);
  };
  const changeOpen = (next: boolean) => {
    if (!next && upload.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = title.trim();
    if (!name || !file) {
      toast({ title: "Error", description: uploadValidationMessage, variant: "destructive" });
      return;
    }
    setProgress(0);
    upload.mutate(
      { name, category, description: description.trim() || undefined, file, onProgress: (fraction) => setProgress(Math.round(fraction * 100)) },
      {
        onSuccess: () => {
          toast({ title: "Document uploaded", description: `${name} was added to the library.` });
          reset();
          onOpenChange(false);
        },
        onError: (error) => {
          setProgress(null);
          toast({ title: "Upload failed", description: serverMessageOf(error) ?? "The document could not be uploaded.", variant: "destructive" });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Upload Document</DialogTitle>
          <DialogDescription>Add a file to your board&apos;s document repository (PDF, Word, text or image, up to 20 MB).</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-title`}>Title</Label>
            <Input id={`${id}-title`} value={title} onChange={(event) => setTitle(event.target.value)} maxLength={300} placeholder="Q3 financial report" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-category`}>Category</Label>
            <Select value={category} onValueChange={setCategory}>
              <SelectTrigger id={`${id}-category`} className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {uploadCategories.map((value) => (
                  <SelectItem key={value} value={value}>
                    {uploadCategoryLabels[value]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-file`}>File</Label>
            <Input
              id={`${id}-file`}
              type="file"
              accept={acceptAttribute}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
              className="cursor-pointer file:mr-3"
            />
            {file && (
              <p className="text-xs text-muted-foreground break-all">
                {file.name} · {formatFileSize(file.size)}
              </p>
            )}
          </div>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-description`}>Description (optional)</Label>
            <Textarea id={`${id}-description`} rows={3} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={10000} />
          </div>
          {progress !== null && (
            <div className="grid gap-1" aria-live="polite">
              <Progress value={progress} aria-label="Upload progress" />
              <p className="text-xs text-muted-foreground">Uploading… {progress}%</p>
            </div>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => changeOpen(false)} disabled={upload.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={upload.isPending}>
              {upload.isPending ? "Uploading..." : "Upload"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
