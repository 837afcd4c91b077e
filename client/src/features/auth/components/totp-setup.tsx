import { zodResolver } from "@hookform/resolvers/zod";
import { Copy, Download, ShieldCheck } from "lucide-react";
import { useForm } from "react-hook-form";
import { totpConfirmSchema, type TotpConfirmInput, type TotpSetup } from "@shared/second-factor";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { ApiError, serverMessageOf } from "@/lib/api-client";
import { applyServerErrors } from "@/lib/form-errors";
import { useConfirmTotp, useSetupTotp } from "@/features/auth/api/totp";

export const TOTP_SETUP_FAILED_TEXT = "Two-factor sign-in could not be set up. Please try again.";
export const TOTP_CONFIRM_FAILED_TEXT = "The code could not be checked. Please try again.";
export const RECOVERY_CODES_FILE = "quorum-recovery-codes.txt";

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

/** 'Set up two-factor sign-in', while it is off; a note says why this screen learned that it is. */
export function SetupStart({
  note,
  onStarted,
  onAlreadyOn,
}: {
  note?: string;
  onStarted: (setup: TotpSetup) => void;
  onAlreadyOn: () => void;
}) {
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

/** The QR code and the key to type in, then a first code from the app to confirm it. */
export function SetupStep({
  setup,
  onConfirmed,
  onCancel,
}: {
  setup: TotpSetup;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
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

/** The recovery codes, shown once just after the set-up: copied, downloaded, then acknowledged. */
export function RecoveryCodesStep({ codes, onSaved }: { codes: string[]; onSaved: () => void }) {
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
