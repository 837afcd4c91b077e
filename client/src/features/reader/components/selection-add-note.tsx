import { NotebookPen } from "lucide-react";
import { useEffect, useState, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { selectedQuote, type PageSelection } from "@/features/reader/lib/selection";

/** "Add note" beside words selected on a page: the note is pinned to them. */
export function SelectionAddNote({ pages, onAdd }: { pages: RefObject<HTMLElement | null>; onAdd: (selection: PageSelection) => void }) {
  const [selection, setSelection] = useState<(PageSelection & { top: number; left: number }) | null>(null);

  useEffect(() => {
    let frame = 0;
    const read = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const current = window.getSelection();
        const quote = selectedQuote(current, pages.current);
        if (!quote) return setSelection(null);
        // Below the selection's end, kept on screen; a browser without a range's box puts it at the reader's foot.
        const box = current!.getRangeAt(0).getBoundingClientRect?.();
        const top = box && box.height > 0 ? Math.min(box.bottom + 8, window.innerHeight - 48) : window.innerHeight - 64;
        const left = box && box.width > 0 ? Math.min(Math.max(box.left, 8), window.innerWidth - 140) : 16;
        setSelection({ ...quote, top, left });
      });
    };
    document.addEventListener("selectionchange", read);
    return () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("selectionchange", read);
    };
  }, [pages]);

  if (!selection) return null;
  return (
    <Button
      size="sm"
      className="fixed z-40 shadow-md"
      style={{ top: selection.top, left: selection.left }}
      // Pressing must not clear the selection before the click reads it.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => {
        onAdd({ page: selection.page, quote: selection.quote });
        setSelection(null);
      }}
    >
      <NotebookPen aria-hidden />
      Add note
    </Button>
  );
}
