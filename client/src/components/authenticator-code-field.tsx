import { useId, type ReactNode } from "react";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** The labelled field for a code from an authenticator app, outside a react-hook-form form, with an optional hint under it. */
export function AuthenticatorCodeField({
  value,
  onChange,
  maxLength,
  hint,
}: {
  value: string;
  onChange: (code: string) => void;
  /** The longest text the server takes (a recovery code is longer than the app's six digits). */
  maxLength: number;
  hint?: ReactNode;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Code from your authenticator app</Label>
      <Input
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={hint ? hintId : undefined}
      />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
