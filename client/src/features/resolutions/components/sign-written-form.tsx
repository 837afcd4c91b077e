import { KeyRound } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { signDecisionLabels, type SignDecision } from "@shared/written-resolutions";
import { AuthenticatorCodeField } from "@/components/authenticator-code-field";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { PasskeyCancelledError } from "@/lib/webauthn";
import { useSignWritten, useSigningMeans } from "@/features/resolutions/api/written-signatures";

export const SIGN_FAILED_TEXT = "The signature could not be recorded. Please try again.";
export const SIGN_PASSWORD_REQUIRED_TEXT = "Enter your password";

/**
 * Signs one decision on a written resolution: with a passkey when the user holds one (the browser asks for the
 * fingerprint, face or PIN), or with the password again (and the authenticator code where the account has an app).
 */
export function SignWrittenForm({
  resolutionId,
  decision,
  textSha256,
  onDone,
  onCancel,
}: {
  resolutionId: number;
  decision: SignDecision;
  textSha256: string | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const means = useSigningMeans();
  const sign = useSignWritten(resolutionId);
  const [byPassword, setByPassword] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const passwordId = useId();
  const errorId = useId();
  const usePassword = byPassword || !means.hasPasskey;

  // The step takes the focus when it opens, so a screen reader says what is being signed.
  useEffect(() => headingRef.current?.focus(), []);

  async function submit(signature: Parameters<typeof sign.mutateAsync>[0]) {
    setError(null);
    try {
      await sign.mutateAsync(signature);
      toast({ title: "Signed", description: `Your signature is recorded: ${signDecisionLabels[decision]}.` });
      onDone();
    } catch (failure) {
      setError(failure instanceof PasskeyCancelledError ? failure.message : (serverMessageOf(failure) ?? SIGN_FAILED_TEXT));
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!usePassword) return void submit({ decision, via: "passkey" });
    if (!password) return setError(SIGN_PASSWORD_REQUIRED_TEXT);
    void submit({ decision, via: "password", password, code: means.hasApp ? code : undefined });
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} className="grid gap-3 rounded-md border border-primary/40 p-3">
      <h4 id={headingId} ref={headingRef} tabIndex={-1} className="font-semibold outline-none">
        Sign: {signDecisionLabels[decision]}
      </h4>
      <p className="text-muted-foreground">
        Your signature commits to this decision on exactly this text
        {textSha256 ? (
          <>
            {" "}
            (SHA-256 <code className="font-mono text-xs whitespace-nowrap">{textSha256.slice(0, 16)}…</code>)
          </>
        ) : null}
        .
      </p>
      {means.isPending ? (
        <p className="text-muted-foreground">Checking how you can sign…</p>
      ) : usePassword ? (
        <>
          <div className="grid gap-2">
            <Label htmlFor={passwordId}>Password</Label>
            <PasswordInput
              id={passwordId}
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              aria-invalid={error === SIGN_PASSWORD_REQUIRED_TEXT ? true : undefined}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          {means.hasApp && <AuthenticatorCodeField value={code} onChange={setCode} maxLength={6} />}
        </>
      ) : (
        <p>Your device will ask for your fingerprint, face or PIN to sign with your passkey.</p>
      )}
      <p id={errorId} role="alert" aria-live="assertive" className="text-sm text-destructive empty:hidden">
        {error ?? ""}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={sign.isPending || means.isPending}>
          {!usePassword && <KeyRound aria-hidden />}
          {sign.isPending ? "Signing..." : usePassword ? "Sign with my password" : "Sign with a passkey"}
        </Button>
        {means.hasPasskey && (
          <Button type="button" variant="outline" onClick={() => (setByPassword((value) => !value), setError(null))}>
            {byPassword ? "Use a passkey instead" : "Use my password instead"}
          </Button>
        )}
        <Button type="button" variant="ghost" onClick={onCancel} disabled={sign.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
