import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type ReactElement } from "react";
import { useForm } from "react-hook-form";
import { addMemberSchema, type AddMemberInput, type AddMemberResult } from "@shared/companies";
import type { CompanyRole } from "@shared/roles";
import { FormDialogFooter } from "@/components/form-dialog-footer";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { SelectField } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { applyServerErrors } from "@/lib/form-errors";
import { useAddMember } from "@/features/companies/api/add-member";
import { InviteLinkNotice } from "@/features/companies/components/invite-link-notice";
import { roleOptions } from "@/features/companies/components/role-options";

const addFailedText = "Failed to add board member. Please try again.";
const defaults: AddMemberInput = { firstName: "", lastName: "", email: "", role: "member", password: "" };

/**
 * The Add Member dialog of Board Members (founders and admins), loaded when its button is first pressed (see
 * AddMemberButton): `trigger` is the button. It invites: the person joins once they accept by the link. Someone new to
 * Quorum gets an account that waits for them to set a password of their own by that link; the password given here
 * never signs anyone in. The link is shown here once, to copy.
 */
export function AddMemberDialog({
  companyId,
  actorRole,
  trigger,
}: {
  companyId: number;
  actorRole: CompanyRole | null;
  trigger: ReactElement;
}) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<AddMemberResult | null>(null);
  const addMember = useAddMember(companyId);
  const form = useForm<AddMemberInput>({ resolver: zodResolver(addMemberSchema), defaultValues: defaults });

  async function onSubmit(values: AddMemberInput) {
    try {
      const result = await addMember.mutateAsync(values);
      toast({ title: "Invitation sent", description: `${result.invitation.email} joins once they accept the invitation.` });
      form.reset(defaults);
      setSent(result);
    } catch (error) {
      applyServerErrors(form, error, { conflictField: "email" });
      toast({ title: "Error", description: addFailedText, variant: "destructive" });
    }
  }

  const pending = addMember.isPending;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          form.reset(defaults);
          setSent(null);
        }
      }}
    >
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Board Member</DialogTitle>
          <DialogDescription>
            They join once they accept the invitation by its link. Someone new to Quorum sets a password of their own there.
          </DialogDescription>
        </DialogHeader>
        {sent ? (
          <InviteLinkNotice result={sent} onDone={() => setOpen(false)} />
        ) : (
          <Form {...form}>
            <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label="Add board member">
              <div className="grid gap-4 sm:grid-cols-2">
                <LabeledField control={form.control} name="firstName" label="First name">
                  {(field) => <Input autoComplete="off" {...field} />}
                </LabeledField>
                <LabeledField control={form.control} name="lastName" label="Last name">
                  {(field) => <Input autoComplete="off" {...field} />}
                </LabeledField>
              </div>
              <LabeledField control={form.control} name="email" label="Email">
                {(field) => <Input type="email" autoComplete="off" autoCapitalize="none" spellCheck={false} {...field} />}
              </LabeledField>
              <SelectField control={form.control} name="role" label="Role" options={roleOptions(actorRole)} placeholder="Select a role" />
              <LabeledField
                control={form.control}
                name="password"
                label="Password"
                description="Never used to sign in: they choose their own password from the link."
              >
                {(field) => <PasswordInput autoComplete="new-password" {...field} />}
              </LabeledField>
              <FormDialogFooter onCancel={() => setOpen(false)} pending={pending} submitLabel="Add Member" pendingLabel="Adding..." />
            </form>
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}
