import { Lock, Plus } from "lucide-react";
import { useState } from "react";
import type { PaperNote } from "@shared/paper-reading";
import { Button } from "@/components/ui/button";
import { LoadError } from "@/components/load-error";
import { cn } from "@/lib/utils";
import { useNoteWrites, useNotes } from "@/features/reader/api/notes";
import { NoteForm } from "@/features/reader/components/note-form";
import { NoteItem } from "@/features/reader/components/note-item";
import { useFocusBack } from "@/features/reader/lib/use-focus-back";

/** A note being written: on a page, pinned to selected words or to the page as a whole (`quote` null). */
export interface NoteDraft {
  page: number;
  quote: string | null;
}

const byPage = (a: PaperNote, b: PaperNote) => a.page - b.page || a.id - b.id;

/**
 * The reader's private notes on a paper: those of the current page or of all pages, the unplaced ones (their page is
 * gone from the latest version), and the note being written. Notes are written on the latest version only.
 */
export function NotesPanel({
  documentId,
  latestVersion,
  currentPage,
  draft,
  onDraft,
  onGoTo,
}: {
  documentId: number;
  latestVersion: number;
  currentPage: number;
  draft: NoteDraft | null;
  onDraft: (draft: NoteDraft | null) => void;
  onGoTo: (page: number) => void;
}) {
  const notes = useNotes(documentId);
  const writes = useNoteWrites(documentId);
  const [scope, setScope] = useState<"page" | "all">("page");

  const placed = (notes.data ?? []).filter((note) => !note.unplaced).sort(byPage);
  const unplaced = (notes.data ?? []).filter((note) => note.unplaced).sort(byPage);
  const shown = scope === "page" ? placed.filter((note) => note.page === currentPage) : placed;

  const focus = useFocusBack(draft != null);
  const closeDraft = () => {
    focus.closing();
    onDraft(null);
  };
  const save = (text: string) => {
    if (!draft) return;
    writes.create.mutate({ version: latestVersion, page: draft.page, quote: draft.quote, text }, { onSuccess: closeDraft });
  };

  return (
    <aside aria-label="My notes" className="grid content-start gap-3">
      <div className="grid gap-1">
        <h2 className="text-base font-semibold">My notes</h2>
        <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
          <Lock className="size-3.5" aria-hidden />
          Only you can see your notes.
        </p>
      </div>

      {draft ? (
        <div ref={focus.form} className="grid gap-2 rounded-md border border-amber-400/60 bg-amber-50 p-3 dark:bg-amber-950/30">
          <p className="text-xs font-medium text-muted-foreground">New note on page {draft.page}</p>
          {draft.quote && <blockquote className="border-l-2 border-amber-400 pl-2 text-sm italic">{draft.quote}</blockquote>}
          <NoteForm
            label="Note"
            pending={writes.create.isPending}
            error={writes.create.error}
            onSave={save}
            onCancel={() => {
              writes.create.reset();
              closeDraft();
            }}
          />
        </div>
      ) : (
        <Button
          ref={focus.button}
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() => onDraft({ page: currentPage, quote: null })}
        >
          <Plus aria-hidden />
          Note on this page
        </Button>
      )}

      <div role="group" aria-label="Notes shown" className="flex gap-1 rounded-lg bg-muted p-1 text-sm">
        {(["page", "all"] as const).map((value) => (
          <button
            key={value}
            type="button"
            aria-pressed={scope === value}
            onClick={() => setScope(value)}
            className={cn(
              "flex-1 rounded-md px-2 py-1 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60",
              scope === value && "bg-card font-medium shadow-sm",
            )}
          >
            {value === "page" ? `Page ${currentPage}` : "All pages"}
          </button>
        ))}
      </div>

      {notes.isError ? (
        <LoadError message="Your notes could not be loaded." onRetry={() => void notes.refetch()} />
      ) : notes.isPending ? (
        <p className="text-sm text-muted-foreground">Loading your notes…</p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-muted-foreground">{scope === "page" ? "No notes on this page." : "No notes yet."}</p>
      ) : (
        <ul className="grid gap-2" aria-label={scope === "page" ? `Notes on page ${currentPage}` : "All notes"}>
          {shown.map((note) => (
            <li key={note.id}>
              <NoteItem note={note} writes={writes} onGoTo={onGoTo} />
            </li>
          ))}
        </ul>
      )}

      {unplaced.length > 0 && (
        <section aria-labelledby="unplaced-notes" className="grid gap-2">
          <h3 id="unplaced-notes" className="text-sm font-semibold">
            Unplaced notes
          </h3>
          <p className="text-xs text-muted-foreground">Their page is gone from the latest version: here is what it said.</p>
          <ul className="grid gap-2">
            {unplaced.map((note) => (
              <li key={note.id}>
                <NoteItem note={note} writes={writes} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </aside>
  );
}
