import { AuthLayout } from "@/features/auth/components/auth-layout";
import { ForgotPasswordForm } from "@/features/auth/components/forgot-password-form";

/** /forgot-password: from sign-in's "Forgot password?". */
export function ForgotPasswordPage() {
  return (
    <AuthLayout title="Forgot your password?" description="Enter your e-mail address and we will send you a link to choose a new one.">
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
