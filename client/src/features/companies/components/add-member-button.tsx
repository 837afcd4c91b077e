import { UserPlus } from "lucide-react";
import type { ComponentProps } from "react";
import type { CompanyRole } from "@shared/roles";
import { Button } from "@/components/ui/button";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";

// The dialog (Radix's, the invitation form, its validation and role select) loads when the button is first pressed.
const loadDialog = () => import("@/features/companies/components/add-member-dialog");

/** Board Members' 'Add Member' (founders and admins). Until the dialog's code is there, the same button stands in for its trigger. */
export function AddMemberButton({ companyId, actorRole }: { companyId: number; actorRole: CompanyRole | null }) {
  const { popup, standIn, triggerRef } = usePopupOnDemand("dialog", loadDialog);
  const button = (props: ComponentProps<"button">) => (
    <Button {...props}>
      <UserPlus aria-hidden />
      Add Member
    </Button>
  );
  if (!popup) return button(standIn);
  return <popup.AddMemberDialog companyId={companyId} actorRole={actorRole} trigger={button({ ref: triggerRef })} />;
}
