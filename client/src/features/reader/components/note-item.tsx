import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import type { PaperNote } from "@shared/paper-reading";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { NoteForm } from "@/features/reader/components/note-form";
import type { useNoteWrites } from "@/features/reader/api/notes";
import { useFocusBack } from "@/features/reader/lib/use-focus-back";

/** One note: where it is, the words it is pinned to, its text; Edit and Delete. */
export function NoteItem({
  note,
  writes,
  onGoTo,
}: {
  note: PaperNote;
  writes: ReturnType<typeof useNoteWrites>;
  onGoTo?: (page: number) => void;
}) {
  const [editing, setEditing] = useState(false);
  const focus = useFocusBack(editing);
  const stopEditing = () => {
    focus.closing();
    setEditing(false);
  };
  const [deleting, setDeleting] = useState(false);
  const where = note.unplaced ? `Was on page ${note.page}` : `Page ${note.page}`;

  return (
    <article aria-label={`Note on page ${note.page}`} className="grid gap-2 rounded-md border bg-card p-3 text-sm">
      <div className="flex items-center justify-between gap-2">
        {onGoTo && !note.unplaced ? (
          <button
            type="button"
            onClick={() => onGoTo(note.page)}
            className="text-xs font-medium text-primary underline-offset-4 hover:underline"
          >
            {where}
          </button>
        ) : (
          <span className="text-xs font-medium text-muted-foreground">{where}</span>
        )}
        {!editing && (
          <div className="flex gap-1">
            <Button
              size="icon"
              variant="ghost"
              className="size-8"
              ref={focus.button}
              aria-label={`Edit note on page ${note.page}`}
              onClick={() => setEditing(true)}
            >
              <Pencil aria-hidden />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              className="size-8"
              aria-label={`Delete note on page ${note.page}`}
              onClick={() => setDeleting(true)}
            >
              <Trash2 aria-hidden />
            </Button>
          </div>
        )}
      </div>
      {note.quote && <blockquote className="border-l-2 border-amber-400 pl-2 text-muted-foreground italic">{note.quote}</blockquote>}
      {note.unplaced && note.pageText ? (
        <details className="text-xs text-muted-foreground">
          <summary className="cursor-pointer">The page&apos;s text then</summary>
          <p className="mt-1 line-clamp-6 whitespace-pre-wrap">{note.pageText}</p>
        </details>
      ) : null}
      {editing ? (
        <div ref={focus.form}>
          <NoteForm
            label="Change the note"
            initial={note.text}
            pending={writes.edit.isPending}
            error={writes.edit.error}
            onCancel={() => {
              writes.edit.reset();
              stopEditing();
            }}
            onSave={(text) => writes.edit.mutate({ id: note.id, text }, { onSuccess: stopEditing })}
          />
        </div>
      ) : (
        <p className="break-words whitespace-pre-wrap">{note.text}</p>
      )}
      <ConfirmDialog
        open={deleting}
        title="Delete this note?"
        description="The note is deleted for good."
        confirmLabel="Delete note"
        pendingLabel="Deleting…"
        pending={writes.remove.isPending}
        onConfirm={() =>
          writes.remove.mutate(note.id, {
            onSettled: () => setDeleting(false),
            onError: (error) =>
              toast({
                title: "The note could not be deleted",
                description: serverMessageOf(error) ?? "Please try again.",
                variant: "destructive",
              }),
          })
        }
        onClose={() => setDeleting(false)}
      />
    </article>
  );
}
