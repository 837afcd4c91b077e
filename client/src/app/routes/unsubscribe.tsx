import { Link, useSearch } from "wouter";
import { Button } from "@/components/ui/button";
import { serverMessageOf } from "@/lib/api-client";
import { AuthLayout } from "@/features/auth/components/auth-layout";
import { useUnsubscribe, useUnsubscribePreview } from "@/features/notifications/api/unsubscribe";

export const INVALID_LINK_TEXT = "This unsubscribe link is not valid";
export const UNSUBSCRIBE_FAILED_TEXT = "Could not unsubscribe. Please try again.";

/**
 * /unsubscribe?token=…: where an e-mail's unsubscribe link leads, signed in or not. Opening it changes nothing
 * (mail scanners open links too): it says which switch the link turns off, and the button does it.
 */
export function UnsubscribePage() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const preview = useUnsubscribePreview(token);
  const unsubscribe = useUnsubscribe();

  if (unsubscribe.isSuccess) {
    const { label } = unsubscribe.data;
    return (
      <AuthLayout title="You are unsubscribed" description={`"${label}" is now off.`}>
        <p className="text-sm text-muted-foreground">You can turn it back on at any time in Settings → Notifications.</p>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link href="/settings">Open Settings</Link>
        </Button>
      </AuthLayout>
    );
  }

  if (token === "" || preview.isError) {
    const message = (preview.isError && serverMessageOf(preview.error)) || INVALID_LINK_TEXT;
    return (
      <AuthLayout title="Unsubscribe" description="Stop the e-mails and notifications of one kind.">
        <p role="alert" className="text-sm text-destructive">
          {message}
        </p>
        <p className="mt-4 text-sm text-muted-foreground">Open the link from the e-mail again, or change your notifications in Settings.</p>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link href="/settings">Open Settings</Link>
        </Button>
      </AuthLayout>
    );
  }

  if (!preview.data) {
    return (
      <AuthLayout title="Unsubscribe" description="Stop the e-mails and notifications of one kind.">
        <p role="status" className="text-sm text-muted-foreground">
          Loading
        </p>
      </AuthLayout>
    );
  }

  const { label } = preview.data;
  return (
    <AuthLayout title="Unsubscribe" description="Stop the e-mails and notifications of one kind.">
      <p className="text-sm">
        This turns off <strong>{label}</strong> in your notification settings: you will no longer get these notifications, in Quorum or by
        e-mail.
      </p>
      {unsubscribe.isError && (
        <p role="alert" className="mt-4 text-sm text-destructive">
          {serverMessageOf(unsubscribe.error) ?? UNSUBSCRIBE_FAILED_TEXT}
        </p>
      )}
      <Button type="button" className="mt-6 w-full" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate(token)}>
        {unsubscribe.isPending ? "Turning off..." : `Turn off ${label}`}
      </Button>
    </AuthLayout>
  );
}
