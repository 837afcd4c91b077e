import { useState } from "react";
import { useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialogOnDemand } from "@/components/ui/confirm-dialog-on-demand";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useCompanies } from "@/features/companies/api/get-companies";
import { useLeaveCompany } from "@/features/companies/api/leave-company";
import { useMembers } from "@/features/companies/api/get-members";

export const LAST_FOUNDER_TEXT = "You are this company's only founder: make another member a founder before you leave.";
export const LEAVE_FAILED_TEXT = "You could not leave the company. Please try again.";

/**
 * Settings → Leave the active company, after a confirmation. The last founder cannot (the server refuses with 409 and
 * says why): the button is off for them, with the reason beside it.
 */
export function LeaveCompanyCard({ companyId, userId }: { companyId: number; userId: number }) {
  const companies = useCompanies();
  const members = useMembers();
  const leave = useLeaveCompany();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const name = companies.data?.find((company) => company.id === companyId)?.name ?? "this company";
  const founders = (members.data ?? []).filter((member) => member.role === "founder");
  const lastFounder = founders.length === 1 && founders[0]!.id === userId;

  function onLeave() {
    leave.mutate(companyId, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: "You left the company", description: `You are no longer on the board of ${name}.` });
        navigate("/", { replace: true });
      },
      onError: (error) => {
        setConfirming(false);
        setRefusal(serverMessageOf(error) ?? LEAVE_FAILED_TEXT);
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Leave company</h2>
        </CardTitle>
        <CardDescription>Stop being a member of {name}. Its papers and meetings will no longer be yours to see.</CardDescription>
      </CardHeader>
      <CardContent className="grid justify-items-start gap-3">
        {lastFounder && <p className="text-sm text-muted-foreground">{LAST_FOUNDER_TEXT}</p>}
        {refusal && (
          <p role="alert" className="text-sm text-destructive">
            {refusal}
          </p>
        )}
        <Button
          type="button"
          variant="destructive"
          disabled={lastFounder || leave.isPending}
          onClick={() => {
            setRefusal(null);
            setConfirming(true);
          }}
        >
          Leave company
        </Button>
        <ConfirmDialogOnDemand
          open={confirming}
          title={`Leave ${name}?`}
          description="You will no longer see its meetings, papers or resolutions. Only a new invitation can bring you back."
          confirmLabel="Leave company"
          pendingLabel="Leaving..."
          pending={leave.isPending}
          onConfirm={onLeave}
          onClose={() => setConfirming(false)}
        />
      </CardContent>
    </Card>
  );
}
