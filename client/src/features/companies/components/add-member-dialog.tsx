import { zodResolver } from "@hookform/resolvers/zod";
import { UserPlus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { addMemberSchema, type AddMemberInput } from "@shared/companies";
import { displayName } from "@shared/people";
import type { CompanyRole } from "@shared/roles";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { SelectField } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { applyServerErrors } from "@/lib/form-errors";
import { useAddMember } from "@/features/companies/api/add-member";
import { roleOptions } from "@/features/companies/components/role-options";

const addFailedText = "Failed to add board member. Please try again.";
const defaults: AddMemberInput = { firstName: "", lastName: "", email: "", role: "member", password: "" };

/**
 * The Add Member dialog of Board Members (founders and admins). Creates the account with the given
 * password, or — for an e-mail that already has an account — adds that account to the company.
 */
export function AddMemberDialog({ companyId, actorRole }: { companyId: number; actorRole: CompanyRole | null }) {
  const [open, setOpen] = useState(false);
  const addMember = useAddMember(companyId);
  const form = useForm<AddMemberInput>({ resolver: zodResolver(addMemberSchema), defaultValues: defaults });

  async function onSubmit(values: AddMemberInput) {
    try {
      const result = await addMember.mutateAsync(values);
      toast({
        title: "Member added",
        description:
          result.status === "invited"
            ? `${result.invitation.email} has been invited.`
            : `${displayName(result.member)} has been added to the board.`,
      });
      form.reset(defaults);
      setOpen(false);
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
        if (!next) form.reset(defaults);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden />
          Add Member
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Add Board Member</DialogTitle>
          <DialogDescription>
            Creates their account with this password. Someone who already has an account is added by their e-mail; their password stays
            their own.
          </DialogDescription>
        </DialogHeader>
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
            <LabeledField control={form.control} name="password" label="Password">
              {(field) => <PasswordInput autoComplete="new-password" {...field} />}
            </LabeledField>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? "Adding..." : "Add Member"}
              </Button>
            </DialogFooter>
          </form>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
