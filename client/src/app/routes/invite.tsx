import { useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import type { InvitationPreview, InvitationStatus } from "@shared/identity";
import { linkTokenMessage } from "@shared/identity";
import { roleLabel } from "@shared/roles";
import { Button } from "@/components/ui/button";
import { serverMessageOf } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { formatLongDate } from "@/lib/format";
import { AuthLayout } from "@/features/auth/components/auth-layout";
import { LoginForm } from "@/features/auth/components/login-form";
import { RegisterForm } from "@/features/auth/components/register-form";
import { useAcceptInvitationByLink, useInvitationPreview } from "@/features/companies/api/invitations";

export const ACCEPT_FAILED_TEXT = "The invitation could not be accepted. Please try again.";

/** Why an invitation that is no longer pending offers nothing to do. */
export const statusExplanations: Record<Exclude<InvitationStatus, "pending">, string> = {
  accepted: "This invitation has already been accepted.",
  declined: "This invitation was declined.",
  revoked: "This invitation was withdrawn by the company. Ask whoever invited you for a new one.",
  expired: "This invitation has expired. Ask whoever invited you to send it again.",
};

const statusLabels: Record<InvitationStatus, string> = {
  pending: "Waiting for an answer",
  accepted: "Accepted",
  declined: "Declined",
  revoked: "Withdrawn",
  expired: "Expired",
};

/** What the invitation offers, as a list of terms. */
function InvitationDetails({ preview }: { preview: InvitationPreview }) {
  const rows: [string, string][] = [
    ["Company", preview.companyName],
    ["Role", roleLabel(preview.role)],
    ["Invited by", preview.inviterName],
    ["Sent to", preview.email],
    [preview.status === "expired" ? "Expired" : "Expires", formatLongDate(preview.expiresAt)],
    ["Status", statusLabels[preview.status]],
  ];
  return (
    <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="font-medium break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Signed in: accepting joins the company and makes it the active one. */
function AcceptInvitation({ token, userId, email }: { token: string; userId: number; email: string }) {
  const accept = useAcceptInvitationByLink(userId);
  const [, navigate] = useLocation();
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        You are signed in{email ? ` as ${email}` : ""}. The invitation must have been sent to your account&apos;s address.
      </p>
      {accept.isError && (
        <p role="alert" className="text-sm text-destructive">
          {serverMessageOf(accept.error) ?? ACCEPT_FAILED_TEXT}
        </p>
      )}
      <Button
        type="button"
        size="lg"
        className="w-full"
        disabled={accept.isPending}
        onClick={() => accept.mutate(token, { onSuccess: () => navigate("/", { replace: true }) })}
      >
        {accept.isPending ? "Accepting..." : "Accept"}
      </Button>
      <Button asChild variant="ghost" className="w-full">
        <Link href="/">Not now</Link>
      </Button>
    </div>
  );
}

/** Signed out: a new account joins as it is made, or sign in. */
function JoinSignedOut({ token, preview }: { token: string; preview: InvitationPreview }) {
  const [signingIn, setSigningIn] = useState(false);
  if (signingIn) {
    return (
      <section aria-labelledby="invite-sign-in" className="grid gap-4">
        <h2 id="invite-sign-in" className="text-lg font-semibold">
          Sign in to accept
        </h2>
        {/* Once signed in, this page offers "Accept". */}
        <LoginForm />
        <Button type="button" variant="link" className="justify-self-center" onClick={() => setSigningIn(false)}>
          Create an account instead
        </Button>
      </section>
    );
  }
  const title = "Create account and join";
  return (
    <section aria-labelledby="invite-register" className="grid gap-4">
      <h2 id="invite-register" className="text-lg font-semibold">
        {title}
      </h2>
      <p className="text-sm text-muted-foreground">Use the address the invitation was sent to ({preview.email}).</p>
      <RegisterForm invitationToken={token} submitLabel={title} onSignIn={() => setSigningIn(true)} />
    </section>
  );
}

/**
 * /invite?token=…: where an invitation's link leads, signed in or not. Opening it changes nothing: it names the
 * company, the role and who invited; a pending invitation is answered by "Accept" (signed in) or by making the account.
 */
export function InvitePage() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const { user } = useCurrentUser();
  const preview = useInvitationPreview(token);

  if (token === "" || preview.isError) {
    return (
      <AuthLayout title="Invitation" description="An invitation to join a company's board on Quorum.">
        <p role="alert" className="text-sm text-destructive">
          {(preview.isError && serverMessageOf(preview.error)) || linkTokenMessage}
        </p>
        <Button asChild variant="outline" className="mt-6 w-full">
          <Link href="/">Go to Quorum</Link>
        </Button>
      </AuthLayout>
    );
  }

  if (!preview.data) {
    return (
      <AuthLayout title="Invitation" description="An invitation to join a company's board on Quorum.">
        <p role="status" className="text-sm text-muted-foreground">
          Loading
        </p>
      </AuthLayout>
    );
  }

  const invitation = preview.data;
  return (
    <AuthLayout title={`Join ${invitation.companyName}`} description={`${invitation.inviterName} invited you to the board on Quorum.`}>
      <div className="grid gap-6">
        <InvitationDetails preview={invitation} />
        {invitation.status !== "pending" ? (
          <p role="status" className="text-sm">
            {statusExplanations[invitation.status]}
          </p>
        ) : user ? (
          <AcceptInvitation token={token} userId={user.id} email={user.email} />
        ) : (
          <JoinSignedOut token={token} preview={invitation} />
        )}
      </div>
    </AuthLayout>
  );
}
