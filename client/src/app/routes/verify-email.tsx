import { useEffect, useRef } from "react";
import { Link, useSearch } from "wouter";
import { linkTokenMessage } from "@shared/identity";
import { Button } from "@/components/ui/button";
import { serverMessageOf } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useVerifyEmail } from "@/features/account/api/verify-email";
import { AuthLayout } from "@/features/auth/components/auth-layout";

export const EMAIL_CONFIRMED_TITLE = "Your e-mail address is confirmed";
export const VERIFY_FAILED_TEXT = "The address could not be confirmed. Please try again.";

/**
 * /verify-email?token=…: where a verification e-mail's link leads, signed in or not. The link proves the address
 * it was sent to; signed in, the banner asking for it goes once the current user is read again.
 */
export function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const { user } = useCurrentUser();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // Once per token: a link is single-use, so a second request would only report it used.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (token === "" || sent.current === token) return;
    sent.current = token;
    mutate(token);
  }, [token, mutate]);

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
    <AuthLayout title="Confirm your e-mail address" description="Following the link from the e-mail proves the address is yours.">
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
        <p role="status" className="text-sm text-muted-foreground">
          Confirming your address...
        </p>
      )}
    </AuthLayout>
  );
}
