import { useId } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";

export interface PickableDocument {
  id: number;
  name: string;
}

/** Checkboxes over the library's documents; the page supplies the list. */
export function DocumentPicker({
  documents,
  isLoading,
  isError,
  value,
  onChange,
}: {
  documents: PickableDocument[] | undefined;
  isLoading?: boolean;
  isError?: boolean;
  value: number[];
  onChange: (ids: number[]) => void;
}) {
  const labelId = useId();
  const toggle = (id: number, checked: boolean) => onChange(checked ? [...value, id] : value.filter((other) => other !== id));
  return (
    <fieldset className="grid gap-2" aria-labelledby={labelId}>
      <legend id={labelId} className="text-sm font-medium">
        Attach documents <span className="font-normal text-muted-foreground">(optional)</span>
      </legend>
      {isLoading ? (
        <p className="text-sm text-muted-foreground">Loading documents…</p>
      ) : isError ? (
        <p className="text-sm text-destructive">The documents could not be loaded.</p>
      ) : !documents || documents.length === 0 ? (
        <p className="text-sm text-muted-foreground">No documents in the library yet.</p>
      ) : (
        <ul className="grid max-h-48 gap-2 overflow-y-auto rounded-md border p-3">
          {documents.map((document) => {
            const id = `attach-document-${document.id}`;
            return (
              <li key={document.id} className="flex items-center gap-2">
                <Checkbox
                  id={id}
                  checked={value.includes(document.id)}
                  onCheckedChange={(checked) => toggle(document.id, checked === true)}
                />
                <Label htmlFor={id} className="min-w-0 truncate font-normal">
                  {document.name}
                </Label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
