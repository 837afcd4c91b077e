import { zodResolver } from "@hookform/resolvers/zod";
import { Copy, Download, ShieldCheck } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { totpConfirmSchema, totpDisableSchema, type TotpConfirmInput, type TotpDisableInput, type TotpSetup } from "@shared/second-factor";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { ApiError, serverMessageOf } from "@/lib/api-client";
import { applyServerErrors } from "@/lib/form-errors";
import { totpStatusQuery, useConfirmTotp, useDisableTotp, useSetupTotp } from "@/features/auth/api/totp";

export const TOTP_SETUP_FAILED_TEXT = "Two-factor sign-in could not be set up. Please try again.";
export const TOTP_CONFIRM_FAILED_TEXT = "The code could not be checked. Please try again.";
export const TOTP_DISABLE_FAILED_TEXT = "Two-factor sign-in could not be turned off. Please try again.";
export const TOTP_NOT_ON_TEXT = "No authenticator app is on for your account.";
export const RECOVERY_CODES_FILE = "quorum-recovery-codes.txt";

type Flow = { step: "idle" } | { step: "setup"; setup: TotpSetup } | { step: "codes"; codes: string[] };

/** The secret in groups of four, easier to read and type into an app that cannot scan. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(text);
    toast({ title: "Copied", description: `The ${what} ${what.endsWith("s") ? "are" : "is"} on your clipboard.` });
  } catch {
    toast({ title: "Copying is not available", description: "Select the text and copy it with your keyboard.", variant: "destructive" });
  }
}

/**
 * Two-factor sign-in with an authenticator app: set it up (a QR code and the secret, a first code to confirm,
 * then the recovery codes shown once), or turn it off with the password and a current code. `enabled` is the
 * user's word that they have a second factor (an app or a passkey): only then is the app's own status asked; what
 * this screen learns from the server later (an app already on, or none to turn off) takes over from both. `onDone` runs once the user has saved their recovery codes;
 * `onFlowChange` says whether a set-up is under way (from its start until the recovery codes are saved).
 */
export function TotpSettings({
  enabled,
  onDone,
  onFlowChange,
}: {
  enabled: boolean;
  onDone?: () => void;
  onFlowChange?: (settingUp: boolean) => void;
}) {
  const [flow, setFlowState] = useState<Flow>({ step: "idle" });
  const setFlow = (next: Flow) => {
    setFlowState(next);
    onFlowChange?.(next.step !== "idle");
  };
  const [learned, setLearned] = useState<{ on: boolean; note?: string } | null>(null);
  const status = useQuery({ ...totpStatusQuery(), enabled });
  const on = learned?.on ?? (enabled && status.data?.enabled === true);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Two-factor sign-in</h2>
        </CardTitle>
        <CardDescription>After your password, Quorum asks for a code from an authenticator app on your phone.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {flow.step === "setup" ? (
          <SetupStep
            setup={flow.setup}
            onConfirmed={(codes) => {
              setLearned({ on: true });
              setFlow({ step: "codes", codes });
            }}
            onCancel={() => setFlow({ step: "idle" })}
          />
        ) : flow.step === "codes" ? (
          <RecoveryCodesStep
            codes={flow.codes}
            onSaved={() => {
              setFlow({ step: "idle" });
              onDone?.();
            }}
          />
        ) : enabled && learned === null && status.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            Loading…
          </p>
        ) : on ? (
          <TurnOff onTurnedOff={(note) => setLearned({ on: false, note })} />
        ) : (
          <SetupStart
            note={learned?.note}
            onStarted={(setup) => setFlow({ step: "setup", setup })}
            onAlreadyOn={() => setLearned({ on: true })}
          />
        )}
      </CardContent>
    </Card>
  );
}

function SetupStart({ note, onStarted, onAlreadyOn }: { note?: string; onStarted: (setup: TotpSetup) => void; onAlreadyOn: () => void }) {
  const setup = useSetupTotp();

  async function onStart() {
    try {
      onStarted(await setup.mutateAsync());
    } catch (error) {
      // An app is already on (set up in another tab): this screen shows it so.
      if (error instanceof ApiError && error.status === 409) onAlreadyOn();
      toast({ title: "Error", description: serverMessageOf(error) ?? TOTP_SETUP_FAILED_TEXT, variant: "destructive" });
    }
  }

  return (
    <>
      {note && (
        <p role="status" className="text-sm text-muted-foreground">
          {note}
        </p>
      )}
      <p className="text-sm">Two-factor sign-in is off. Anyone who learns your password can sign in as you.</p>
      <div>
        <Button type="button" onClick={() => void onStart()} disabled={setup.isPending}>
          <ShieldCheck aria-hidden />
          {setup.isPending ? "Setting up..." : "Set up two-factor sign-in"}
        </Button>
      </div>
    </>
  );
}

function SetupStep({ setup, onConfirmed, onCancel }: { setup: TotpSetup; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const confirm = useConfirmTotp();
  const form = useForm<TotpConfirmInput>({ resolver: zodResolver(totpConfirmSchema), defaultValues: { code: "" } });
  const secret = groupSecret(setup.secret);

  async function onSubmit(values: TotpConfirmInput) {
    try {
      const { recoveryCodes } = await confirm.mutateAsync(values);
      onConfirmed(recoveryCodes);
    } catch (error) {
      applyServerErrors(form, error);
      if (error instanceof ApiError && (error.status === 400 || error.status === 429) && error.fieldErrors.length === 0) {
        form.setError("code", { message: error.serverMessage ?? TOTP_CONFIRM_FAILED_TEXT }, { shouldFocus: true });
      } else if (!(error instanceof ApiError && error.fieldErrors.length > 0)) {
        toast({ title: "Error", description: serverMessageOf(error) ?? TOTP_CONFIRM_FAILED_TEXT, variant: "destructive" });
      }
    }
  }

  return (
    <div className="grid gap-5">
      <ol className="grid list-decimal gap-1 pl-5 text-sm">
        <li>Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password...).</li>
        <li>Scan the QR code, or type in the key below.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        {/* Our own server's drawing, shown as an image: nothing in it can run. White behind it, so it scans in dark mode. */}
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qrSvg)}`}
          alt="QR code to scan with your authenticator app"
          width={192}
          height={192}
          className="size-48 shrink-0 self-center rounded-md border bg-white p-2 sm:self-start"
        />
        <div className="grid min-w-0 gap-2">
          <p className="text-sm font-medium">Key for typing in</p>
          <code data-testid="totp-secret" className="rounded-md bg-muted px-3 py-2 font-mono text-sm break-words select-all">
            {secret}
          </code>
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => void copyText(setup.secret, "key")}>
              <Copy aria-hidden />
              Copy key
            </Button>
          </div>
        </div>
      </div>
      <Form {...form}>
        <form onSubmit={form.handleSubmit(onSubmit)} noValidate aria-label="Verify the authenticator app" className="grid max-w-xs gap-4">
          <LabeledField control={form.control} name="code" label="Code from the app">
            {(field) => <Input inputMode="numeric" autoComplete="one-time-code" maxLength={16} spellCheck={false} {...field} />}
          </LabeledField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={confirm.isPending}>
              {confirm.isPending ? "Verifying..." : "Verify"}
            </Button>
            <Button type="button" variant="ghost" onClick={onCancel} disabled={confirm.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      </Form>
    </div>
  );
}

function RecoveryCodesStep({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
  const text = `Quorum recovery codes\nEach code signs you in once, in place of a code from your authenticator app.\n\n${codes.join("\n")}\n`;
  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h3 className="font-semibold">Save your recovery codes</h3>
        <p className="text-sm text-muted-foreground">
          Two-factor sign-in is on. If you lose your phone, each of these codes signs you in once. They are shown only now: keep them
          somewhere safe, such as a password manager.
        </p>
      </div>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-md border bg-muted/50 p-4 font-mono text-sm sm:w-fit"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => void copyText(codes.join("\n"), "recovery codes")}>
          <Copy aria-hidden />
          Copy codes
        </Button>
        <Button asChild variant="outline">
          <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download={RECOVERY_CODES_FILE}>
            <Download aria-hidden />
            Download .txt
          </a>
        </Button>
      </div>
      <div>
        <Button type="button" onClick={onSaved}>
          I have saved these codes
        </Button>
      </div>
    </div>
  );
}

const emptyDisable: TotpDisableInput = { password: "", code: "" };

function TurnOff({ onTurnedOff }: { onTurnedOff: (note?: string) => void }) {
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
