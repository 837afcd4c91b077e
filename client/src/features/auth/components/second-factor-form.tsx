import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod/mini";
import type { AuthResponse } from "@shared/auth";
import { secondFactorLoginSchema, totpConfirmSchema, type SecondFactorChallenge } from "@shared/second-factor";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { ApiError, serverMessageOf } from "@/lib/api-client";
import { PasskeyCancelledError, usePasskeySignIn } from "@/features/auth/api/passkeys";
import { useLoginWithSecondFactor } from "@/features/auth/api/second-factor";

export const SECOND_FACTOR_FAILED_TEXT = "The code could not be checked. Please try again.";
export const SIGN_IN_EXPIRED_TEXT = "The sign-in has expired. Please sign in again.";

interface Values {
  code: string;
}

// A code from the app is six digits; a recovery code is checked by the sign-in's own rule (which takes either).
const appCodeResolver = zodResolver(totpConfirmSchema);
const recoveryCodeResolver = zodResolver(z.object({ code: secondFactorLoginSchema.shape.code }));

/** Whether a refusal of the second step means the sign-in itself is gone (expired, used, or never issued). */
function isExpired(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 400) return error.fieldErrors.some((field) => field.path === "challenge");
  return error.status === 401 && /expired/i.test(error.serverMessage ?? "");
}

/**
 * The second step of a sign-in: a code from the authenticator app, or a recovery code when the account has them.
 * A wrong code is said under the field and the step stays; a sign-in that has expired goes back to the password
 * step with `onExpired`'s message. Loaded only when a sign-in asks for it.
 */
export function SecondFactorForm({
  challenge,
  onBack,
  onExpired,
}: {
  challenge: SecondFactorChallenge;
  onBack: () => void;
  onExpired: (message: string) => void;
}) {
  const [useRecovery, setUseRecovery] = useState(false);
  // The resolver reads the method through a ref: the form keeps the resolver it was made with.
  const recoveryRef = useRef(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const second = useLoginWithSecondFactor();
  const passkey = usePasskeySignIn();
  const form = useForm<Values>({
    resolver: (...args) => (recoveryRef.current ? recoveryCodeResolver : appCodeResolver)(...args),
    defaultValues: { code: "" },
  });
  const recoveryOffered = challenge.methods.includes("recovery");
  const passkeyOffered = challenge.methods.includes("passkey");
  // An account whose only second factor is a passkey has no code to type: the passkey is the step.
  const codeOffered = challenge.methods.includes("totp") || recoveryOffered;

  /** Completes the sign-in with `step`; a refusal is said in the form, an expired sign-in goes back to the password. */
  async function complete(step: () => Promise<AuthResponse>) {
    setRefusal(null);
    try {
      const user = await step();
      toast({ title: "Login successful", description: `Welcome, ${user.firstName || user.username}!` });
    } catch (error) {
      if (isExpired(error)) return onExpired(serverMessageOf(error) ?? SIGN_IN_EXPIRED_TEXT);
      const message = error instanceof PasskeyCancelledError ? error.message : serverMessageOf(error);
      setRefusal(message ?? SECOND_FACTOR_FAILED_TEXT);
      if (codeOffered) form.setFocus("code");
    }
  }

  const onSubmit = (values: Values) =>
    complete(() => second.mutateAsync({ challenge: challenge.challenge, code: values.code.trim().toLowerCase() }));
  const onPasskey = () => complete(() => passkey.mutateAsync({ signInChallenge: challenge.challenge }));

  function switchMethod() {
    recoveryRef.current = !recoveryRef.current;
    setUseRecovery(recoveryRef.current);
    setRefusal(null);
    // The field is keyed by the method: it mounts again, empty, and takes the focus.
    form.reset({ code: "" });
  }

  const pending = second.isPending || passkey.isPending;

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-5" aria-label="Two-factor sign-in">
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">Two-factor sign-in</h2>
          <p className="text-sm text-muted-foreground">
            {!codeOffered
              ? "Use your passkey to finish signing in."
              : useRecovery
                ? "Enter one of the recovery codes you saved when you set up two-factor sign-in. Each code works once."
                : "Enter the 6-digit code from your authenticator app."}
          </p>
        </div>
        {codeOffered && (
          <LabeledField
            key={useRecovery ? "recovery" : "app"}
            control={form.control}
            name="code"
            label={useRecovery ? "Recovery code" : "Authentication code"}
          >
            {(field) =>
              useRecovery ? (
                <Input autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={32} autoFocus {...field} />
              ) : (
                <Input inputMode="numeric" autoComplete="one-time-code" spellCheck={false} maxLength={16} autoFocus {...field} />
              )
            }
          </LabeledField>
        )}
        {refusal && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {refusal}
          </p>
        )}
        {codeOffered && (
          <Button type="submit" size="lg" className="w-full" disabled={pending}>
            {second.isPending ? "Verifying..." : "Verify"}
          </Button>
        )}
        {passkeyOffered && (
          <Button
            type="button"
            variant={codeOffered ? "outline" : "default"}
            size="lg"
            className="w-full"
            onClick={() => void onPasskey()}
            disabled={pending}
          >
            <KeyRound aria-hidden />
            {passkey.isPending ? "Waiting for your passkey..." : "Use a passkey"}
          </Button>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button type="button" variant="ghost" onClick={onBack} disabled={pending}>
            Back
          </Button>
          {recoveryOffered && (
            <Button type="button" variant="link" className="px-0" onClick={switchMethod} disabled={pending}>
              {useRecovery ? "Use a code from your app" : "Use a recovery code"}
            </Button>
          )}
        </div>
      </form>
    </Form>
  );
}
