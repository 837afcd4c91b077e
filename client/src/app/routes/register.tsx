import { AuthLayout } from "@/features/auth/components/auth-layout";
import { RegisterForm } from "@/features/auth/components/register-form";

export function RegisterPage() {
  return (
    <AuthLayout title="Create your account" description="Register, then set up your company's board.">
      <RegisterForm />
    </AuthLayout>
  );
}
