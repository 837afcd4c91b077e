import { useState } from "react";
import type { AddMemberResult, PendingInvitation } from "@shared/companies";
import { roleLabel } from "@shared/roles";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialogOnDemand } from "@/components/ui/confirm-dialog-on-demand";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { formatLongDate } from "@/lib/format";
import { useCompanyInvitations, useResendInvitation, useRevokeInvitation } from "@/features/companies/api/invitations";
import { InviteLinkNotice } from "@/features/companies/components/invite-link-notice";

// The revoke confirmation (Radix's alert dialog) loads when first asked for.

export const INVITATIONS_LOAD_FAILED_TEXT = "Could not load the invitations. Please reload the page.";

type Status = PendingInvitation["status"];

const statusBadge: Record<Status, { label: string; variant: "secondary" | "success" | "outline" | "warning" | "destructive" }> = {
  pending: { label: "Pending", variant: "warning" },
  accepted: { label: "Accepted", variant: "success" },
  declined: { label: "Declined", variant: "outline" },
  revoked: { label: "Revoked", variant: "outline" },
  expired: { label: "Expired", variant: "secondary" },
};

/** When the invitation's link stops (or stopped) working, or what became of it. */
function whenText(invitation: PendingInvitation): string {
  // Made before invitations had links: resending gives it one.
  if (invitation.status === "pending" && !invitation.hasLink) return "No link yet: resend it to send one";
  if (invitation.status === "pending") return `Expires ${formatLongDate(invitation.expiresAt)}`;
  if (invitation.status === "expired") return `Expired ${formatLongDate(invitation.expiresAt)}`;
  return `Sent ${formatLongDate(invitation.createdAt)}`;
}

/**
 * The company's invitations (founders and admins): who, as what, their state and when the link stops working. A
 * pending or expired one can be sent again with a new link (shown once); a pending one revoked after a confirmation.
 */
export function PendingInvitations({ companyId, headingLevel = 2 }: { companyId: number; headingLevel?: 2 | 3 }) {
  const invitations = useCompanyInvitations(companyId);
  const resend = useResendInvitation(companyId);
  const revoke = useRevokeInvitation(companyId);
  const [newLink, setNewLink] = useState<AddMemberResult | null>(null);
  const [revoking, setRevoking] = useState<PendingInvitation | null>(null);
  const Heading = headingLevel === 2 ? "h2" : "h3";

  function onResend(invitation: PendingInvitation) {
    resend.mutate(invitation.id, {
      onSuccess: (result) => {
        setNewLink(result);
        toast({ title: "Invitation sent", description: `A new link for ${result.invitation.email}; the old one no longer works.` });
      },
      onError: (error) =>
        toast({
          title: "Not sent",
          description: serverMessageOf(error) ?? "The invitation could not be sent again.",
          variant: "destructive",
        }),
    });
  }

  function onRevoke() {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        toast({ title: "Invitation revoked", description: `The link sent to ${revoking.email} no longer works.` });
        setRevoking(null);
      },
      onError: (error) => {
        toast({
          title: "Not revoked",
          description: serverMessageOf(error) ?? "The invitation could not be revoked.",
          variant: "destructive",
        });
        setRevoking(null);
      },
    });
  }

  const list = invitations.data ?? [];
  return (
    <section aria-labelledby={`pending-invitations-${companyId}`} className="grid min-w-0 gap-3">
      <Heading id={`pending-invitations-${companyId}`} className={headingLevel === 2 ? "text-lg font-semibold" : "text-sm font-semibold"}>
        Pending invitations
      </Heading>
      {newLink && <InviteLinkNotice result={newLink} onDone={() => setNewLink(null)} />}
      {invitations.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          Loading invitations...
        </p>
      ) : invitations.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {INVITATIONS_LOAD_FAILED_TEXT}
        </p>
      ) : list.length === 0 ? (
        <p className="text-sm text-muted-foreground">No invitations yet.</p>
      ) : (
        <ul className="divide-y rounded-md border" aria-label="Invitations">
          {list.map((invitation) => {
            const badge = statusBadge[invitation.status];
            const canResend = invitation.status === "pending" || invitation.status === "expired";
            return (
              <li key={invitation.id} className="flex min-w-0 flex-col gap-2 px-3 py-3 text-sm sm:flex-row sm:items-center">
                <div className="grid min-w-0 flex-1 gap-1">
                  <span className="truncate font-medium">{invitation.email}</span>
                  <span className="flex flex-wrap items-center gap-2 text-muted-foreground">
                    <Badge variant="outline">{roleLabel(invitation.role)}</Badge>
                    <Badge variant={badge.variant}>
                      <span className="sr-only">Status: </span>
                      {badge.label}
                    </Badge>
                    <span>{whenText(invitation)}</span>
                  </span>
                </div>
                {canResend && (
                  <div className="flex gap-2">
                    {canResend && (
                      <Button
                        type="button"
                        size="sm"
                        variant="outline"
                        disabled={resend.isPending}
                        aria-label={`Resend the invitation to ${invitation.email}`}
                        onClick={() => onResend(invitation)}
                      >
                        Resend
                      </Button>
                    )}
                    {invitation.status === "pending" && (
                      <Button
                        type="button"
                        size="sm"
                        variant="ghost"
                        aria-label={`Revoke the invitation to ${invitation.email}`}
                        onClick={() => setRevoking(invitation)}
                      >
                        Revoke
                      </Button>
                    )}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialogOnDemand
        open={revoking !== null}
        title="Revoke this invitation?"
        description={revoking ? `The link sent to ${revoking.email} stops working. You can invite them again later.` : ""}
        confirmLabel="Revoke"
        pendingLabel="Revoking..."
        pending={revoke.isPending}
        onConfirm={onRevoke}
        onClose={() => setRevoking(null)}
      />
    </section>
  );
}
