import { ChevronLeft, ChevronRight, Maximize2, NotebookPen, PanelLeft, ZoomIn, ZoomOut } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** Zoom, paging, "Go to page", and the buttons that show the side panel and the notes. */
export function ReaderToolbar({
  page,
  pageCount,
  scale,
  fitting,
  onGoTo,
  onZoom,
  onFit,
  sideOpen,
  onToggleSide,
  notesOpen,
  onToggleNotes,
}: {
  page: number;
  pageCount: number;
  scale: number;
  fitting: boolean;
  onGoTo: (page: number) => void;
  onZoom: (direction: 1 | -1) => void;
  onFit: () => void;
  sideOpen: boolean;
  onToggleSide: () => void;
  /** Absent where there are no notes (the board pack). */
  notesOpen?: boolean;
  onToggleNotes?: () => void;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = Number(typed);
    if (Number.isInteger(wanted) && wanted >= 1 && wanted <= pageCount) onGoTo(wanted);
    setTyped(null);
  };

  return (
    <div role="toolbar" aria-label="Reader controls" className="flex flex-wrap items-center gap-1 border-b bg-card px-2 py-1.5">
      <Button size="icon" variant="ghost" aria-label="Pages and search" aria-expanded={sideOpen} onClick={onToggleSide}>
        <PanelLeft aria-hidden />
      </Button>
      <Button size="icon" variant="ghost" aria-label="Previous page" disabled={page <= 1} onClick={() => onGoTo(page - 1)}>
        <ChevronLeft aria-hidden />
      </Button>
      <form onSubmit={onSubmit} className="flex items-center gap-1 text-sm">
        <Input
          aria-label="Go to page"
          inputMode="numeric"
          value={typed ?? String(page)}
          onChange={(event) => setTyped(event.target.value.replace(/\D/g, "").slice(0, 6))}
          onFocus={(event) => event.target.select()}
          onBlur={() => setTyped(null)}
          className="h-8 w-14 px-2 text-center"
        />
        <span className="text-muted-foreground whitespace-nowrap">of {pageCount}</span>
      </form>
      <Button size="icon" variant="ghost" aria-label="Next page" disabled={page >= pageCount} onClick={() => onGoTo(page + 1)}>
        <ChevronRight aria-hidden />
      </Button>
      <span className="mx-1 h-6 w-px bg-border" aria-hidden />
      <Button size="icon" variant="ghost" aria-label="Zoom out" onClick={() => onZoom(-1)}>
        <ZoomOut aria-hidden />
      </Button>
      <span className="w-12 text-center text-sm tabular-nums" aria-label={`Zoom ${Math.round(scale * 100)} %`}>
        {Math.round(scale * 100)}%
      </span>
      <Button size="icon" variant="ghost" aria-label="Zoom in" onClick={() => onZoom(1)}>
        <ZoomIn aria-hidden />
      </Button>
      <Button size="icon" variant="ghost" aria-label="Fit width" aria-pressed={fitting} onClick={onFit}>
        <Maximize2 aria-hidden />
      </Button>
      {onToggleNotes && (
        <Button variant="ghost" size="sm" className="ml-auto" aria-expanded={notesOpen} onClick={onToggleNotes}>
          <NotebookPen aria-hidden />
          My notes
        </Button>
      )}
    </div>
  );
}
