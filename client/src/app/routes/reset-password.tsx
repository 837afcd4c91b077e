import { useSearch } from "wouter";
import { AuthLayout } from "@/features/auth/components/auth-layout";
import { ResetPasswordForm } from "@/features/auth/components/reset-password-form";

/** /reset-password?token=…: where a reset e-mail's link leads. */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  return (
    <AuthLayout title="Choose a new password" description="Every session of your account ends when the password changes.">
      <ResetPasswordForm token={token} />
    </AuthLayout>
  );
}
