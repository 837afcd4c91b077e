import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useLocation } from "wouter";
import { registerSchema, type RegisterInput } from "@shared/auth";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useRegister } from "@/features/auth/api/register";
import { AuthLink } from "@/features/auth/components/auth-link";

const REGISTER_FAILED_TEXT = "There was an error creating your account. Please try again.";

/**
 * Registration: on success the new founder goes on to set up a company. With an invitation's token, the account joins
 * the invitation's company instead and lands on its dashboard; `onSignIn` then offers signing in with an existing one.
 */
export function RegisterForm({
  invitationToken,
  submitLabel = "Create account",
  onSignIn,
}: { invitationToken?: string; submitLabel?: string; onSignIn?: () => void } = {}) {
  const registerMutation = useRegister();
  const [, navigate] = useLocation();
  const form = useForm<RegisterInput>({
    resolver: zodResolver(registerSchema),
    defaultValues: { firstName: "", lastName: "", username: "", email: "", password: "" },
  });

  async function onSubmit(values: RegisterInput) {
    try {
      await registerMutation.mutateAsync(invitationToken ? { ...values, invitationToken } : values);
    } catch (error) {
      toast({ title: "Registration failed", description: serverMessageOf(error) ?? REGISTER_FAILED_TEXT, variant: "destructive" });
      return;
    }
    toast({ title: "Registration successful", description: "Your account has been created successfully." });
    navigate(invitationToken ? "/" : "/company-onboarding", { replace: true });
  }

  const pending = registerMutation.isPending;

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-5" aria-label="Create account">
        <div className="grid gap-5 sm:grid-cols-2">
          <LabeledField control={form.control} name="firstName" label="First name">
            {(field) => <Input autoComplete="given-name" {...field} value={field.value ?? ""} />}
          </LabeledField>
          <LabeledField control={form.control} name="lastName" label="Last name">
            {(field) => <Input autoComplete="family-name" {...field} value={field.value ?? ""} />}
          </LabeledField>
        </div>
        <LabeledField control={form.control} name="username" label="Username">
          {(field) => <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...field} />}
        </LabeledField>
        <LabeledField control={form.control} name="email" label="Email">
          {(field) => <Input type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} {...field} />}
        </LabeledField>
        <LabeledField control={form.control} name="password" label="Password">
          {(field) => <PasswordInput autoComplete="new-password" {...field} />}
        </LabeledField>
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? "Creating account..." : submitLabel}
        </Button>
        {onSignIn ? (
          <Button type="button" variant="link" className="justify-self-center" onClick={onSignIn}>
            I already have an account
          </Button>
        ) : (
          <p className="text-center text-sm text-muted-foreground">
            Already have an account? <AuthLink href="/">Sign in</AuthLink>
          </p>
        )}
      </form>
    </Form>
  );
}
