import { useLocation } from "wouter";
import type { MyInvitation } from "@shared/identity";
import { roleLabel } from "@shared/roles";
import { DashboardPanel } from "@/components/dashboard-panel";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { formatLongDate } from "@/lib/format";
import { useAcceptInvitation, useDeclineInvitation, useMyInvitations } from "@/features/companies/api/invitations";

/**
 * Invitations to the user's verified address, each with Accept (joins, and the company becomes the active one) and
 * Decline. Nothing at all while there are none, or while they are being read.
 */
export function MyInvitationsPanel({ userId, className }: { userId: number; className?: string }) {
  const invitations = useMyInvitations();
  const accept = useAcceptInvitation(userId);
  const decline = useDeclineInvitation();
  const [, navigate] = useLocation();
  if (!invitations.data || invitations.data.length === 0) return null;

  function onAccept(invitation: MyInvitation) {
    accept.mutate(invitation.id, {
      onSuccess: () => {
        toast({ title: "Invitation accepted", description: `You are now on the board of ${invitation.companyName}.` });
        navigate("/", { replace: true });
      },
      onError: (error) =>
        toast({
          title: "Not accepted",
          description: serverMessageOf(error) ?? "The invitation could not be accepted.",
          variant: "destructive",
        }),
    });
  }

  function onDecline(invitation: MyInvitation) {
    decline.mutate(invitation.id, {
      onSuccess: () => toast({ title: "Invitation declined", description: `You declined to join ${invitation.companyName}.` }),
      onError: (error) =>
        toast({
          title: "Not declined",
          description: serverMessageOf(error) ?? "The invitation could not be declined.",
          variant: "destructive",
        }),
    });
  }

  const busy = accept.isPending || decline.isPending;
  return (
    <DashboardPanel title="Invitations" className={className}>
      <ul className="grid gap-3" aria-label="Invitations to join a board">
        {invitations.data.map((invitation) => (
          <li key={invitation.id} className="flex min-w-0 flex-col gap-3 rounded-lg border p-3 sm:flex-row sm:items-center">
            <div className="grid min-w-0 flex-1 gap-0.5 text-sm">
              <p className="font-medium break-words">{invitation.companyName}</p>
              <p className="text-muted-foreground">
                {roleLabel(invitation.role)} · invited by {invitation.inviterName} · until {formatLongDate(invitation.expiresAt)}
              </p>
            </div>
            <div className="flex gap-2">
              <Button
                type="button"
                size="sm"
                disabled={busy}
                aria-label={`Accept the invitation to ${invitation.companyName}`}
                onClick={() => onAccept(invitation)}
              >
                Accept
              </Button>
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={busy}
                aria-label={`Decline the invitation to ${invitation.companyName}`}
                onClick={() => onDecline(invitation)}
              >
                Decline
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </DashboardPanel>
  );
}
