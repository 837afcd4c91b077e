import { formatDistanceToNow } from "date-fns";
import { Button } from "@/components/ui/button";

/** Offers an unsent draft back (useFormDraft): restore it into the form, or throw it away. */
export function DraftNotice({ savedAt, onRestore, onDiscard }: { savedAt: Date; onRestore: () => void; onDiscard: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed bg-muted/60 px-3 py-2 text-sm"
    >
      <p className="min-w-0">You have an unsent draft from {formatDistanceToNow(savedAt, { addSuffix: true })}.</p>
      <div className="flex gap-2">
        <Button type="button" size="sm" variant="outline" onClick={onDiscard}>
          Discard
        </Button>
        <Button type="button" size="sm" onClick={onRestore}>
          Restore draft
        </Button>
      </div>
    </div>
  );
}
