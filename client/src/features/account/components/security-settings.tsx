import { formatDistanceToNow } from "date-fns";
import { Laptop } from "lucide-react";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import type { PasswordChange } from "@shared/account";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { ApiError, serverMessageOf } from "@/lib/api-client";
import { deferredResolver } from "@/lib/deferred-resolver";
import { applyServerErrors } from "@/lib/form-errors";
import { useChangePassword } from "@/features/account/api/change-password";
import { useSessions } from "@/features/account/api/get-sessions";
import { useRevokeOtherSessions } from "@/features/account/api/revoke-other-sessions";
import { SettingsCard } from "@/features/account/components/settings-card";

export const PASSWORD_FAILED_TEXT = "Failed to update password";
export const REVOKE_FAILED_TEXT = "Failed to sign out your other sessions. Please try again.";

const passwordValidation = deferredResolver<PasswordChange>(
  async () => (await import("@/features/account/lib/account-resolvers")).passwordChangeResolver,
);

const emptyPasswords: PasswordChange = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** Settings → Security: change the password, and see and end the user's other sessions; `children` (second factors) go between. */
export function SecuritySettings({ userId, children }: { userId: number; children?: ReactNode }) {
  return (
    <div className="grid gap-6">
      <PasswordForm userId={userId} />
      {children}
      <SessionsCard userId={userId} />
    </div>
  );
}

function PasswordForm({ userId }: { userId: number }) {
  const changePassword = useChangePassword(userId);
  const form = useForm<PasswordChange>({ resolver: passwordValidation.resolver, defaultValues: emptyPasswords });

  async function onSubmit(values: PasswordChange) {
    try {
      await changePassword.mutateAsync(values);
      form.reset(emptyPasswords);
      toast({ title: "Password updated", description: "Your password has been successfully changed." });
    } catch (error) {
      applyServerErrors(form, error);
      // A wrong current password is that field's fault.
      if (error instanceof ApiError && error.status === 400 && error.fieldErrors.length === 0 && error.serverMessage) {
        form.setError("currentPassword", { message: error.serverMessage }, { shouldFocus: true });
      }
      toast({ title: "Error", description: serverMessageOf(error) ?? PASSWORD_FAILED_TEXT, variant: "destructive" });
    }
  }

  return (
    <SettingsCard title="Change password" description="Changing it signs you out everywhere else.">
      <Form {...form}>
        <form
          onSubmit={form.handleSubmit(onSubmit)}
          {...passwordValidation.prefetchOnTouch}
          noValidate
          className="grid max-w-md gap-4"
          aria-label="Change password"
        >
          <LabeledField control={form.control} name="currentPassword" label="Current password">
            {(field) => <PasswordInput autoComplete="current-password" {...field} />}
          </LabeledField>
          <LabeledField control={form.control} name="newPassword" label="New password">
            {(field) => <PasswordInput autoComplete="new-password" {...field} />}
          </LabeledField>
          <LabeledField control={form.control} name="confirmPassword" label="Confirm new password">
            {(field) => <PasswordInput autoComplete="new-password" {...field} />}
          </LabeledField>
          <div>
            <Button type="submit" disabled={changePassword.isPending}>
              {changePassword.isPending ? "Updating..." : "Update Password"}
            </Button>
          </div>
        </form>
      </Form>
    </SettingsCard>
  );
}

function SessionsCard({ userId }: { userId: number }) {
  const sessions = useSessions(userId);
  const revoke = useRevokeOtherSessions(userId);
  const others = (sessions.data ?? []).filter((session) => !session.current).length;

  async function onRevoke() {
    try {
      const { revoked } = await revoke.mutateAsync();
      toast({
        title: "Signed out",
        description: revoked === 1 ? "1 other session has been signed out." : `${revoked} other sessions have been signed out.`,
      });
    } catch {
      toast({ title: "Error", description: REVOKE_FAILED_TEXT, variant: "destructive" });
    }
  }

  return (
    <SettingsCard title="Active sessions" description="The browsers and devices signed in to your account." contentClassName="grid gap-4">
      {sessions.isPending ? (
        <p role="status" className="text-sm text-muted-foreground">
          Loading sessions...
        </p>
      ) : sessions.isError ? (
        <p className="text-sm text-destructive">Your sessions could not be loaded.</p>
      ) : (
        <ul className="grid divide-y rounded-md border" aria-label="Active sessions">
          {sessions.data.map((session) => (
            <li key={session.id} className="flex min-w-0 items-start gap-3 px-4 py-3">
              <Laptop className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
              <div className="grid min-w-0 flex-1 gap-0.5">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                  <span className="truncate">{session.device}</span>
                  {session.current && <Badge variant="secondary">This device</Badge>}
                </p>
                <p className="text-xs text-muted-foreground">
                  {session.current ? "Active now" : `Last used ${formatDistanceToNow(new Date(session.lastUsedAt), { addSuffix: true })}`}
                  {" · "}signed in {formatDistanceToNow(new Date(session.createdAt), { addSuffix: true })}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button type="button" variant="outline" onClick={() => void onRevoke()} disabled={revoke.isPending || others === 0}>
          {revoke.isPending ? "Signing out..." : "Sign out other sessions"}
        </Button>
      </div>
    </SettingsCard>
  );
}
