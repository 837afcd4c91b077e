import { Link, useSearch } from "wouter";
import { linkTokenMessage } from "@shared/identity";
import { Button } from "@/components/ui/button";
import { serverMessageOf } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useVerifyEmail } from "@/features/account/api/verify-email";
import { AuthLayout } from "@/features/auth/components/auth-layout";

export const EMAIL_CONFIRMED_TITLE = "Your e-mail address is confirmed";
export const VERIFY_FAILED_TEXT = "The address could not be confirmed. Please try again.";
export const CONFIRM_ADDRESS_TEXT =
  "Confirm that this e-mail address belongs to your Quorum account. Only confirm if you created the account.";

/**
 * /verify-email?token=…: where a verification e-mail's link leads, signed in or not. The link's token proves the
 * address it was sent to once its holder presses the button: opening the page confirms nothing, so a mail
 * scanner that follows links, or one click on a mail about someone else's account, cannot. Signed in, the banner
 * asking for the proof goes once the current user is read again.
 */
export function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const { user } = useCurrentUser();
  const verify = useVerifyEmail();

  const onward = (
    <Button asChild className="mt-6 w-full">
      <Link href="/">{user ? "Go to the dashboard" : "Sign in"}</Link>
    </Button>
  );

  if (verify.isSuccess) {
    return (
      <AuthLayout title={EMAIL_CONFIRMED_TITLE} description="Invitations sent to it can now reach you.">
        <p role="status" className="text-sm">
          <strong className="break-all">{verify.data.email}</strong> is now the confirmed address of your account.
        </p>
        {onward}
      </AuthLayout>
    );
  }

  const failure = token === "" ? linkTokenMessage : verify.isError ? (serverMessageOf(verify.error) ?? VERIFY_FAILED_TEXT) : null;
  return (
    <AuthLayout title="Confirm your e-mail address" description={CONFIRM_ADDRESS_TEXT}>
      {failure ? (
        <>
          <p role="alert" className="text-sm text-destructive">
            {failure}
          </p>
          <p className="mt-4 text-sm text-muted-foreground">
            {user ? "You can have a new link sent from the banner above your dashboard." : "Sign in to have a new link sent."}
          </p>
          {onward}
        </>
      ) : (
        <Button type="button" className="w-full" disabled={verify.isPending} onClick={() => verify.mutate(token)}>
          {verify.isPending ? "Confirming..." : "Confirm my address"}
        </Button>
      )}
    </AuthLayout>
  );
}
