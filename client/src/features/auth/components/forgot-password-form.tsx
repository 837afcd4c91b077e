import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { passwordResetRequestSchema, type PasswordResetRequest } from "@shared/identity";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { ApiError } from "@/lib/api-client";
import { useRequestPasswordReset } from "@/features/auth/api/password-reset";
import { BackToSignIn } from "@/features/auth/components/auth-link";

export const RESET_LINK_SENT_TEXT =
  "If an account has that address, we have sent it a link to reset the password. It works for 30 minutes.";
export const RESET_REQUEST_FAILED_TEXT = "The link could not be sent. Please try again.";

/**
 * Asks for the address a reset link goes to. The answer is the same whether or not an account holds it, so the page
 * says the same too; only a refusal for too many requests is said as the server says it.
 */
export function ForgotPasswordForm() {
  const request = useRequestPasswordReset();
  const form = useForm<PasswordResetRequest>({ resolver: zodResolver(passwordResetRequestSchema), defaultValues: { email: "" } });
  const failure =
    request.error instanceof ApiError && request.error.status === 429 && request.error.serverMessage
      ? request.error.serverMessage
      : request.isError
        ? RESET_REQUEST_FAILED_TEXT
        : null;

  return (
    <div className="grid gap-5">
      {/* Always present (a hidden region is not read out), so the confirmation is announced when it appears. */}
      <div aria-live="polite" className="text-sm">
        {request.isSuccess && <p>{RESET_LINK_SENT_TEXT}</p>}
      </div>
      {failure && (
        <p role="alert" className="text-sm text-destructive">
          {failure}
        </p>
      )}
      {!request.isSuccess && (
        <Form {...form}>
          <form
            onSubmit={form.handleSubmit((values) => request.mutate(values.email))}
            noValidate
            className="grid gap-5"
            aria-label="Reset your password"
          >
            <LabeledField control={form.control} name="email" label="Email">
              {(field) => <Input type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} autoFocus {...field} />}
            </LabeledField>
            <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
              {request.isPending ? "Sending..." : "Send reset link"}
            </Button>
          </form>
        </Form>
      )}
      <BackToSignIn />
    </div>
  );
}
