import { useForm } from "react-hook-form";
import type { ProfileFormValues } from "@shared/account";
import type { User } from "@shared/auth";
import { displayName } from "@shared/people";
import { roleLabel } from "@shared/roles";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/use-toast";
import { ApiError } from "@/lib/api-client";
import { deferredResolver } from "@/lib/deferred-resolver";
import { applyServerErrors } from "@/lib/form-errors";
import { initials } from "@/lib/format";
import { useUpdateProfile } from "@/features/account/api/update-profile";
import { SettingsCard } from "@/features/account/components/settings-card";

const profileValidation = deferredResolver<ProfileFormValues>(
  async () => (await import("@/features/account/lib/account-resolvers")).profileResolver,
);

export const PROFILE_FAILED_TEXT = "Failed to update profile";

/** What the failure toast says: the server's words after the fixed text, when it gave any. */
function profileFailureText(error: unknown): string {
  if (!(error instanceof ApiError)) return PROFILE_FAILED_TEXT;
  const detail = error.serverMessage ?? (typeof error.body === "string" ? error.body : undefined);
  return detail ? `${PROFILE_FAILED_TEXT}: ${detail}` : PROFILE_FAILED_TEXT;
}

/** Settings → Profile: who the user is (avatar, name, e-mail, role) and the form that changes it. */
export function ProfileSettings({ user }: { user: User }) {
  const updateProfile = useUpdateProfile(user.id);
  const form = useForm<ProfileFormValues>({
    resolver: profileValidation.resolver,
    defaultValues: {
      firstName: user.firstName ?? "",
      lastName: user.lastName ?? "",
      email: user.email,
      profileImageUrl: user.profileImageUrl ?? "",
    },
  });

  async function onSubmit(values: ProfileFormValues) {
    try {
      const updated = await updateProfile.mutateAsync(values);
      // A new address counts once its link is followed; until then the account keeps the old one.
      if (updated.pendingEmail && updated.pendingEmail.toLowerCase() === values.email.toLowerCase()) {
        toast({
          title: "Profile updated",
          description: `We sent a link to ${updated.pendingEmail}: your address changes once you follow it.`,
        });
      } else {
        toast({ title: "Profile updated" });
      }
      form.reset(values);
    } catch (error) {
      applyServerErrors(form, error, { conflictField: "email" });
      toast({ title: "Error", description: profileFailureText(error), variant: "destructive" });
    }
  }

  const name = displayName(user);
  return (
    <SettingsCard
      title="Profile"
      description="Your name, e-mail address and photo, as other board members see them."
      contentClassName="grid gap-6"
    >
      <div className="flex min-w-0 items-center gap-4" data-testid="profile-summary">
        <Avatar className="size-16 text-lg">
          {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" />}
          <AvatarFallback aria-hidden className="text-lg">
            {initials(user)}
          </AvatarFallback>
        </Avatar>
        <div className="grid min-w-0 gap-0.5">
          <p className="truncate text-lg font-semibold">{name}</p>
          <p className="truncate text-sm text-muted-foreground">{user.email}</p>
          {user.pendingEmail && (
            <p className="text-sm break-all text-amber-700 dark:text-amber-400">Waiting for confirmation: {user.pendingEmail}</p>
          )}
          <p className="text-sm text-muted-foreground">{user.companyId == null ? "No company yet" : roleLabel(user.role)}</p>
        </div>
      </div>
      <Form {...form}>
        <form
          onSubmit={form.handleSubmit(onSubmit)}
          {...profileValidation.prefetchOnTouch}
          noValidate
          className="grid gap-4"
          aria-label="Profile"
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <LabeledField control={form.control} name="firstName" label="First name">
              {(field) => <Input autoComplete="given-name" {...field} />}
            </LabeledField>
            <LabeledField control={form.control} name="lastName" label="Last name">
              {(field) => <Input autoComplete="family-name" {...field} />}
            </LabeledField>
          </div>
          <LabeledField control={form.control} name="email" label="Email">
            {(field) => <Input type="email" autoComplete="email" {...field} />}
          </LabeledField>
          <LabeledField
            control={form.control}
            name="profileImageUrl"
            label="Profile image URL"
            description="An https link to a photo; leave empty to show your initials."
          >
            {(field) => <Input type="url" inputMode="url" placeholder="https://" {...field} />}
          </LabeledField>
          <div>
            <Button type="submit" disabled={updateProfile.isPending}>
              {updateProfile.isPending ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>
      </Form>
    </SettingsCard>
  );
}
