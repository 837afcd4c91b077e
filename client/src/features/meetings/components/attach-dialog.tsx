import { useId, useState } from "react";
import type { LibraryDocument } from "@shared/documents";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import type { AgendaResolution, Loaded } from "@/features/meetings/lib/meeting-sources";

export interface Attachments {
  documentIds: number[];
  resolutionIds: number[];
}

/**
 * Papers from the company's library and its pending resolutions, as checkboxes. Nothing changes until
 * 'Attach' is pressed. A resolution already on the item stays listed (to take it off) once it is decided.
 */
export function AttachDialog({
  itemName,
  initial,
  library,
  resolutions,
  onApply,
  onClose,
}: {
  itemName: string;
  initial: Attachments;
  library: Loaded<LibraryDocument>;
  resolutions: Loaded<AgendaResolution>;
  onApply: (attachments: Attachments) => void;
  onClose: () => void;
}) {
  const [documentIds, setDocumentIds] = useState(initial.documentIds);
  const [resolutionIds, setResolutionIds] = useState(initial.resolutionIds);
  const offered = (resolutions.data ?? []).filter(
    (resolution) => resolution.status === "pending" || initial.resolutionIds.includes(resolution.id),
  );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="grid max-h-[90dvh] grid-rows-[auto_minmax(0,1fr)_auto] sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Attach papers and resolutions</DialogTitle>
          <DialogDescription className="break-words">For “{itemName}”</DialogDescription>
        </DialogHeader>
        <div className="grid min-h-0 gap-5 overflow-y-auto pr-1">
          <CheckList
            legend="Papers from the library"
            list={library}
            entries={(library.data ?? []).map((document) => ({ id: document.id, label: document.name }))}
            selected={documentIds}
            onChange={setDocumentIds}
            emptyText="No documents in the library yet."
            errorText="The library could not be loaded."
          />
          <CheckList
            legend="Pending resolutions"
            list={resolutions}
            entries={offered.map((resolution) => ({ id: resolution.id, label: resolution.title }))}
            selected={resolutionIds}
            onChange={setResolutionIds}
            emptyText="No pending resolutions."
            errorText="The resolutions could not be loaded."
          />
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="button" onClick={() => onApply({ documentIds, resolutionIds })}>
            Attach
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function CheckList({
  legend,
  list,
  entries,
  selected,
  onChange,
  emptyText,
  errorText,
}: {
  legend: string;
  list: Pick<Loaded<unknown>, "isPending" | "isError" | "refetch">;
  entries: { id: number; label: string }[];
  selected: number[];
  onChange: (ids: number[]) => void;
  emptyText: string;
  errorText: string;
}) {
  const idPrefix = useId();
  // Ticking keeps the order things were ticked in: an item's papers are listed (and packed) in that order.
  const toggle = (id: number, checked: boolean) =>
    onChange(checked ? [...selected.filter((other) => other !== id), id] : selected.filter((other) => other !== id));
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      {list.isPending ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : list.isError ? (
        <div className="flex flex-wrap items-center gap-3" role="alert">
          <p id={`${idPrefix}-error`} className="text-sm text-destructive">
            {errorText}
          </p>
          <Button type="button" variant="outline" size="sm" aria-describedby={`${idPrefix}-error`} onClick={() => list.refetch()}>
            Try again
          </Button>
        </div>
      ) : entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">{emptyText}</p>
      ) : (
        <ul className="grid gap-1 rounded-md border p-2">
          {entries.map((entry) => {
            const id = `${idPrefix}-${entry.id}`;
            return (
              <li key={entry.id} className="flex items-start gap-3 rounded-md px-2 py-1.5 hover:bg-accent">
                <Checkbox
                  id={id}
                  className="mt-0.5"
                  checked={selected.includes(entry.id)}
                  onCheckedChange={(checked) => toggle(entry.id, checked === true)}
                />
                <Label htmlFor={id} className="min-w-0 flex-1 cursor-pointer leading-snug font-normal break-words">
                  {entry.label}
                </Label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
