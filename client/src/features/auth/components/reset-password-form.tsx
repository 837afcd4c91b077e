import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "wouter";
import { z } from "zod/mini";
import { linkTokenMessage, passwordResetConfirmSchema } from "@shared/identity";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { PasswordInput } from "@/components/ui/password-input";
import { ApiError, serverMessageOf } from "@/lib/api-client";
import { clearAuthToken, getAuthToken } from "@/lib/auth-token";
import { applyServerErrors } from "@/lib/form-errors";
import { useConfirmPasswordReset } from "@/features/auth/api/password-reset";
import { BackToSignIn } from "@/features/auth/components/auth-link";

export const PASSWORD_CHANGED_TEXT = "Your password has been changed. Sign in with your new password.";
export const PASSWORDS_DIFFER_TEXT = "The passwords do not match";
export const RESET_FAILED_TEXT = "The password could not be changed. Please try again.";

const resetFormSchema = z
  .object({ newPassword: passwordResetConfirmSchema.shape.newPassword, confirmPassword: z.string() })
  .check(
    z.refine((values) => values.newPassword === values.confirmPassword, { message: PASSWORDS_DIFFER_TEXT, path: ["confirmPassword"] }),
  );
type ResetFormValues = z.infer<typeof resetFormSchema>;

/** A link that cannot reset anything (malformed, used, expired, replaced): what the server said, and a way to a new one. */
function DeadLink({ message }: { message: string }) {
  return (
    <div className="grid gap-4">
      <p role="alert" className="text-sm text-destructive">
        {message}
      </p>
      <Button asChild className="w-full">
        <Link href="/forgot-password">Ask for a new link</Link>
      </Button>
    </div>
  );
}

/**
 * The new password, twice, for the reset link's token. Success ends every session of the account (this browser's
 * too), so it offers sign-in; a second factor is still asked there.
 */
export function ResetPasswordForm({ token }: { token: string }) {
  const confirm = useConfirmPasswordReset();
  const queryClient = useQueryClient();
  // Kept here: signing this browser out below clears the mutation's own state with the rest of the cache.
  const [changed, setChanged] = useState(false);
  const form = useForm<ResetFormValues>({
    resolver: zodResolver(resetFormSchema),
    defaultValues: { newPassword: "", confirmPassword: "" },
  });

  if (token === "") return <DeadLink message={linkTokenMessage} />;

  if (changed) {
    return (
      <div className="grid gap-4" aria-live="polite">
        <p role="status" className="text-sm">
          {PASSWORD_CHANGED_TEXT}
        </p>
        <p className="text-sm text-muted-foreground">If your account has a second factor, you will still be asked for it.</p>
        <Button asChild className="w-full">
          <Link href="/">Sign in</Link>
        </Button>
      </div>
    );
  }

  const error = confirm.error;
  // The link itself is refused (rather than the password): the form cannot help.
  if (
    error instanceof ApiError &&
    (error.status === 410 || error.status === 404 || (error.status === 400 && error.fieldErrors.every((e) => e.path === "token")))
  ) {
    return <DeadLink message={error.serverMessage ?? linkTokenMessage} />;
  }

  async function onSubmit(values: ResetFormValues) {
    try {
      await confirm.mutateAsync({ token, newPassword: values.newPassword });
    } catch (failure) {
      applyServerErrors(form, failure);
      return;
    }
    setChanged(true);
    // The server ended every session of the account, this one among them.
    if (getAuthToken() !== null) {
      clearAuthToken();
      queryClient.clear();
    }
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-5" aria-label="Choose a new password">
        <LabeledField control={form.control} name="newPassword" label="New password">
          {(field) => <PasswordInput autoComplete="new-password" autoFocus {...field} />}
        </LabeledField>
        <LabeledField control={form.control} name="confirmPassword" label="Confirm new password">
          {(field) => <PasswordInput autoComplete="new-password" {...field} />}
        </LabeledField>
        {confirm.isError && (
          <p role="alert" className="text-sm text-destructive">
            {serverMessageOf(confirm.error) ?? RESET_FAILED_TEXT}
          </p>
        )}
        <Button type="submit" size="lg" className="w-full" disabled={confirm.isPending}>
          {confirm.isPending ? "Saving..." : "Set new password"}
        </Button>
        <BackToSignIn />
      </form>
    </Form>
  );
}
