import { zodResolver } from "@hookform/resolvers/zod";
import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { totpDisableSchema, type TotpDisableInput } from "@shared/second-factor";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { ApiError, serverMessageOf } from "@/lib/api-client";
import { applyServerErrors } from "@/lib/form-errors";
import { useDisableTotp } from "@/features/auth/api/totp";

export const TOTP_DISABLE_FAILED_TEXT = "Two-factor sign-in could not be turned off. Please try again.";
export const TOTP_NOT_ON_TEXT = "No authenticator app is on for your account.";

const emptyDisable: TotpDisableInput = { password: "", code: "" };

/** While the app is on: 'Turn off', with the password and a current code; `onTurnedOff` gets a note when there was nothing to turn off. */
export function TurnOff({ onTurnedOff }: { onTurnedOff: (note?: string) => void }) {
  const disable = useDisableTotp();
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<TotpDisableInput>({ resolver: zodResolver(totpDisableSchema), defaultValues: emptyDisable });

  async function onSubmit(values: TotpDisableInput) {
    setRefusal(null);
    try {
      await disable.mutateAsync(values);
      toast({ title: "Two-factor sign-in turned off", description: "Your password alone signs you in now." });
      onTurnedOff();
    } catch (error) {
      // Nothing to turn off (the second factor is something else, or the app went in another tab).
      if (error instanceof ApiError && error.status === 404) return onTurnedOff(TOTP_NOT_ON_TEXT);
      applyServerErrors(form, error);
      if (!(error instanceof ApiError && error.fieldErrors.length > 0)) setRefusal(serverMessageOf(error) ?? TOTP_DISABLE_FAILED_TEXT);
    }
  }

  return (
    <>
      <p className="flex items-center gap-2 text-sm">
        <ShieldCheck className="size-4 text-primary" aria-hidden />
        Two-factor sign-in is on.
      </p>
      {open ? (
        <Form {...form}>
          <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label="Turn off two-factor sign-in" className="grid max-w-md gap-4">
            <p className="text-sm text-muted-foreground">To turn it off, enter your password and a current code from your app.</p>
            <LabeledField control={form.control} name="password" label="Password">
              {(field) => <PasswordInput autoComplete="current-password" {...field} />}
            </LabeledField>
            <LabeledField control={form.control} name="code" label="Code from the app">
              {(field) => <Input inputMode="numeric" autoComplete="one-time-code" maxLength={16} spellCheck={false} {...field} />}
            </LabeledField>
            {refusal && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {refusal}
              </p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="destructive" disabled={disable.isPending}>
                {disable.isPending ? "Turning off..." : "Turn off"}
              </Button>
              <Button
                type="button"
                variant="ghost"
                onClick={() => {
                  setOpen(false);
                  setRefusal(null);
                  form.reset(emptyDisable);
                }}
                disabled={disable.isPending}
              >
                Cancel
              </Button>
            </div>
          </form>
        </Form>
      ) : (
        <div>
          <Button type="button" variant="outline" onClick={() => setOpen(true)}>
            Turn off
          </Button>
        </div>
      )}
    </>
  );
}
