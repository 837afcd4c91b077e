import { AuthLayout } from "@/features/auth/components/auth-layout";
import { LoginForm } from "@/features/auth/components/login-form";

export function SignInPage() {
  return (
    <AuthLayout title="Sign in" description="Sign in to your board portal.">
      <LoginForm />
    </AuthLayout>
  );
}
