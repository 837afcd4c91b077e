import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { ApiError } from "@/lib/api-client";

/** The server's words for a refused note (its field error, else its message), or a plain sentence. */
export function noteErrorText(error: unknown): string {
  if (error instanceof ApiError)
    return error.fieldErrors[0]?.message ?? error.serverMessage ?? "The note could not be saved. Please try again.";
  return "The note could not be saved. Please try again.";
}

/** A note's text being written or changed; Save waits for the server, which says what it refuses. */
export function NoteForm({
  label,
  initial = "",
  pending,
  error,
  onSave,
  onCancel,
}: {
  label: string;
  initial?: string;
  pending: boolean;
  error: unknown;
  onSave: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(initial);
  const id = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSave(text);
  };
  return (
    <form onSubmit={onSubmit} className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <Textarea
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        rows={4}
        autoFocus
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {noteErrorText(error)}
        </p>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={pending} aria-busy={pending}>
          {pending ? "Saving…" : "Save note"}
        </Button>
      </div>
    </form>
  );
}
