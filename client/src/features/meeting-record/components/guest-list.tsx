import { UserPlus, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { attendanceLimits } from "@shared/meeting-record";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** Guests: not participants, named only (they never count towards the quorum). */
export function GuestList({ guests, onChange }: { guests: string[]; onChange: (guests: string[]) => void }) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const removeRefs = useRef<(HTMLButtonElement | null)[]>([]);
  // After a chip is removed, the chip now at its place (the next one) takes the focus, else the name field.
  const [focusAt, setFocusAt] = useState<number | null>(null);

  useEffect(() => {
    if (focusAt == null) return;
    (removeRefs.current[focusAt] ?? inputRef.current)?.focus();
    setFocusAt(null);
  }, [focusAt]);

  function remove(index: number) {
    onChange(guests.filter((_, at) => at !== index));
    setFocusAt(index);
  }

  function add() {
    const trimmed = name.trim();
    if (!trimmed) return setProblem("Guest name is required");
    if (trimmed.length > attendanceLimits.guestName)
      return setProblem(`Guest name must be at most ${attendanceLimits.guestName} characters`);
    if (guests.length >= attendanceLimits.guests) return setProblem(`At most ${attendanceLimits.guests} guests`);
    onChange([...guests, trimmed]);
    setName("");
    setProblem(null);
  }

  return (
    <div className="grid gap-3">
      <h3 className="text-sm font-medium">Guests</h3>
      {guests.length === 0 ? (
        <p className="text-sm text-muted-foreground">No guests recorded.</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label="Guests">
          {guests.map((guest, index) => (
            <li
              key={`${index}-${guest}`}
              className="flex max-w-full min-w-0 items-center gap-1 rounded-full border bg-muted/40 py-0.5 pr-0.5 pl-3 text-sm"
            >
              <span className="min-w-0 break-words">{guest}</span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="size-7 rounded-full"
                aria-label={`Remove guest ${guest}`}
                ref={(button) => {
                  removeRefs.current[index] = button;
                }}
                onClick={() => remove(index)}
              >
                <X aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-2 sm:max-w-md">
        <Label htmlFor={inputId}>Guest name</Label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            ref={inputRef}
            value={name}
            aria-invalid={problem != null}
            aria-describedby={problem ? `${inputId}-problem` : undefined}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              // Enter adds the guest rather than saving the whole record.
              if (event.key === "Enter") {
                event.preventDefault();
                add();
              }
            }}
          />
          <Button type="button" variant="outline" onClick={add}>
            <UserPlus aria-hidden />
            Add guest
          </Button>
        </div>
        {problem && (
          <p id={`${inputId}-problem`} role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
      </div>
    </div>
  );
}
