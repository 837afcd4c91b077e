import { MailWarning, X } from "lucide-react";
import { useState } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useResendVerification } from "@/features/account/api/verify-email";

export const ADDRESS_TAKEN_TEXT = "Your e-mail address was confirmed by another account. Add a new one in Settings.";
export const RESEND_FAILED_TEXT = "The e-mail could not be sent. Please try again later.";

/**
 * Above every page while the user's address waits for its proof: where the link went, and a way to have it sent
 * again. With no address left (another account proved it), where to give a new one. Dismissed until the next visit.
 */
export function EmailVerificationBanner({ email }: { email: string }) {
  const [dismissed, setDismissed] = useState(false);
  const resend = useResendVerification();
  if (dismissed) return null;
  const taken = email === "";

  function sendAgain() {
    resend.mutate(undefined, {
      onSuccess: ({ message }) => toast({ title: "Verification e-mail sent", description: message }),
      onError: (error) => toast({ title: "Not sent", description: serverMessageOf(error) ?? RESEND_FAILED_TEXT, variant: "destructive" }),
    });
  }

  return (
    <section
      aria-label="Your e-mail address"
      className="mx-auto mb-6 flex w-full max-w-6xl flex-col gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-4 text-sm sm:flex-row sm:items-center"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <MailWarning className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
        <p className="min-w-0 break-words">{taken ? ADDRESS_TAKEN_TEXT : `Confirm your e-mail address: we sent a link to ${email}.`}</p>
      </div>
      <div className="flex items-center gap-2 self-end sm:self-auto">
        {taken ? (
          <Button asChild size="sm" variant="outline">
            <Link href="/settings">Open Settings</Link>
          </Button>
        ) : (
          <Button type="button" size="sm" variant="outline" disabled={resend.isPending} onClick={sendAgain}>
            {resend.isPending ? "Sending..." : "Send again"}
          </Button>
        )}
        <Button type="button" size="icon" variant="ghost" aria-label="Dismiss" onClick={() => setDismissed(true)}>
          <X aria-hidden />
        </Button>
      </div>
    </section>
  );
}
