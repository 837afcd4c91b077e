import { zodResolver } from "@hookform/resolvers/zod";
import { Send } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { displayName } from "@shared/people";
import { can } from "@shared/permissions";
import { inviteSchema, type AddMemberResult, type CompanyMember, type InviteInput } from "@shared/companies";
import { roleLabel, type CompanyRole } from "@shared/roles";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { SelectField } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toast } from "@/components/ui/use-toast";
import { applyServerErrors } from "@/lib/form-errors";
import { useAddMember } from "@/features/companies/api/add-member";
import { useChangeRole } from "@/features/companies/api/change-role";
import { InviteLinkNotice } from "@/features/companies/components/invite-link-notice";
import { MemberAvatar } from "@/features/companies/components/member-avatar";
import { PendingInvitations } from "@/features/companies/components/pending-invitations";
import { roleOptions } from "@/features/companies/components/role-options";

/**
 * Whether `actor` may change `member`'s role: never their own; founders and admins may change roles, and
 * a founder's role only someone who may make or remove founders (the server applies the same rules).
 */
export function canChangeRole(actor: { id: number; role: CompanyRole | null }, member: Pick<CompanyMember, "id" | "role">): boolean {
  if (actor.id === member.id) return false;
  return can(actor.role, "changeRole") && (member.role !== "founder" || can(actor.role, "assignFounder"));
}

function MemberRow({
  member,
  actor,
  companyId,
}: {
  member: CompanyMember;
  actor: { id: number; role: CompanyRole | null };
  companyId: number;
}) {
  const changeRole = useChangeRole(companyId);
  const name = displayName(member);
  const editable = canChangeRole(actor, member);

  function onRoleChange(role: string) {
    if (role === member.role) return;
    changeRole.mutate(
      { userId: member.id, role: role as CompanyRole },
      {
        onSuccess: () => toast({ title: "Role updated", description: `${name} is now ${roleLabel(role)}.` }),
        onError: () => toast({ title: "Update failed", description: "There was an error updating member role.", variant: "destructive" }),
      },
    );
  }

  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center" data-testid="team-member">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <MemberAvatar member={member} className="size-10" />
        <div className="min-w-0">
          <p className="truncate font-medium">
            {name}
            {member.id === actor.id && <span className="ml-1.5 text-sm font-normal text-muted-foreground">(you)</span>}
          </p>
          <p className="truncate text-sm text-muted-foreground">{member.email}</p>
        </div>
      </div>
      {editable ? (
        <Select value={member.role} onValueChange={onRoleChange} disabled={changeRole.isPending}>
          <SelectTrigger className="w-full sm:w-44" aria-label={`Role of ${name}`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {roleOptions(actor.role).map((option) => (
              <SelectItem key={option.value} value={option.value}>
                {option.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : (
        <div className="sm:w-44">
          <Badge variant="secondary">
            <span className="sr-only">Role: </span>
            {roleLabel(member.role)}
          </Badge>
        </div>
      )}
    </li>
  );
}

function InviteForm({ companyId, actorRole }: { companyId: number; actorRole: CompanyRole | null }) {
  const addMember = useAddMember(companyId);
  const [sent, setSent] = useState<AddMemberResult | null>(null);
  const form = useForm<InviteInput>({ resolver: zodResolver(inviteSchema), defaultValues: { email: "", role: "member" } });

  async function onSubmit(values: InviteInput) {
    try {
      const result = await addMember.mutateAsync({ email: values.email, role: values.role });
      toast({
        title: "Invitation sent",
        description: `${result.invitation.email} joins as ${roleLabel(result.invitation.role)} once they accept the invitation.`,
      });
      setSent(result);
      form.reset({ email: "", role: values.role });
    } catch (error) {
      applyServerErrors(form, error, { conflictField: "email" });
      toast({ title: "Invitation failed", description: "There was an error sending the invitation.", variant: "destructive" });
    }
  }

  return (
    <Form {...form}>
      <form
        onSubmit={form.handleSubmit(onSubmit)}
        noValidate
        aria-label="Invite a member"
        className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_11rem_auto] sm:items-start"
      >
        <LabeledField control={form.control} name="email" label="Email">
          {(field) => (
            <Input type="email" autoComplete="off" autoCapitalize="none" spellCheck={false} placeholder="name@example.com" {...field} />
          )}
        </LabeledField>
        <SelectField control={form.control} name="role" label="Role" options={roleOptions(actorRole)} placeholder="Select a role" />
        <Button type="submit" disabled={addMember.isPending} className="sm:mt-6">
          <Send aria-hidden />
          {addMember.isPending ? "Sending..." : "Send Invitation"}
        </Button>
        {sent && (
          <div className="sm:col-span-3">
            <InviteLinkNotice result={sent} onDone={() => setSent(null)} />
          </div>
        )}
      </form>
    </Form>
  );
}

/** The Team Members tab: roles of the members, the invite form and the company's invitations. */
export function TeamMembers({
  companyId,
  members,
  actor,
}: {
  companyId: number;
  members: CompanyMember[];
  actor: { id: number; role: CompanyRole | null };
}) {
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Invite a member</h2>
          </CardTitle>
          <CardDescription>
            They join with this role once they accept the invitation by its link, whether or not they already have an account.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6">
          <InviteForm companyId={companyId} actorRole={actor.role} />
          <PendingInvitations companyId={companyId} headingLevel={3} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Team Members</h2>
          </CardTitle>
          <CardDescription>Change what each member may do. Nobody changes their own role.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="divide-y" aria-label="Team members">
            {members.map((member) => (
              <MemberRow key={member.id} member={member} actor={actor} companyId={companyId} />
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
