import { KeyRound } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { AuthenticatorCodeField } from "@/components/authenticator-code-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { PasswordInput } from "@/components/ui/password-input";
import { serverMessageOf } from "@/lib/api-client";
import { PasskeyCancelledError, reauthenticateWithPasskey } from "@/features/auth/api/passkeys";
import { reauthenticate } from "@/features/auth/api/reauth";

export const REAUTH_TITLE = "Confirm it's you";
export const REAUTH_PASSWORD_REQUIRED_TEXT = "Enter your password";
export const REAUTH_FAILED_TEXT = "Could not confirm it's you. Please try again.";

/**
 * Asks for the password (and, where the account has a second factor, a code from the app or a passkey) before a
 * security change the server would not make on the session alone. `onProved` once the server accepted the proof;
 * `onCancel` when the user closes the dialog instead.
 */
export function ReauthDialog({ secondFactor, onProved, onCancel }: { secondFactor: boolean; onProved: () => void; onCancel: () => void }) {
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"password" | "passkey" | null>(null);
  const passwordId = useId();
  const errorId = useId();

  async function prove(how: "password" | "passkey") {
    setBusy(how);
    setError(null);
    try {
      if (how === "password") await reauthenticate({ password, code: code.trim() || undefined });
      else await reauthenticateWithPasskey();
      onProved();
    } catch (failure) {
      setError(failure instanceof PasskeyCancelledError ? failure.message : (serverMessageOf(failure) ?? REAUTH_FAILED_TEXT));
      setBusy(null);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) {
      setError(REAUTH_PASSWORD_REQUIRED_TEXT);
      return;
    }
    void prove("password");
  }

  return (
    <Dialog open onOpenChange={(open) => !open && busy === null && onCancel()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>{REAUTH_TITLE}</DialogTitle>
          <DialogDescription>
            {secondFactor
              ? "This change needs your password and your second factor: a code from your authenticator app, or a passkey."
              : "This change needs your password."}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate aria-label={REAUTH_TITLE} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor={passwordId}>Password</Label>
            <PasswordInput
              id={passwordId}
              autoComplete="current-password"
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={error === REAUTH_PASSWORD_REQUIRED_TEXT ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          {secondFactor && (
            <AuthenticatorCodeField
              value={code}
              onChange={setCode}
              maxLength={32}
              hint="Leave it empty if your account has no authenticator app."
            />
          )}
          <p id={errorId} role="alert" aria-live="assertive" className="min-h-5 text-sm text-destructive empty:min-h-0">
            {error ?? ""}
          </p>
          <DialogFooter className="gap-2">
            {secondFactor && (
              <Button type="button" variant="outline" className="sm:mr-auto" disabled={busy !== null} onClick={() => void prove("passkey")}>
                <KeyRound aria-hidden />
                {busy === "passkey" ? "Waiting for the passkey..." : "Use a passkey"}
              </Button>
            )}
            <Button type="button" variant="outline" disabled={busy !== null} onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy !== null}>
              {busy === "password" ? "Confirming..." : "Confirm"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
