import { lazy, Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import { deferredResolver } from "@/lib/deferred-resolver";
import type { LoginInput } from "@shared/auth";
import type { SecondFactorChallenge } from "@shared/second-factor";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { ApiError } from "@/lib/api-client";
import { useLogin } from "@/features/auth/api/login";
import { PasskeySignIn } from "@/features/auth/components/passkey-sign-in";
import { AuthLink } from "@/features/auth/components/auth-link";

const LOGIN_FAILED_TEXT = "Invalid username or password. Please try again.";

// The validation chunk is requested when the visitor first focuses or presses on the form (deferredResolver).
const validation = deferredResolver<LoginInput>(async () => (await import("@/features/auth/lib/login-resolver")).loginResolver);

// The second step is its own chunk too: most sign-ins never need it.
const SecondFactorForm = lazy(async () => ({
  default: (await import("@/features/auth/components/second-factor-form")).SecondFactorForm,
}));

/**
 * Sign-in: username and password, then, with a second factor on, its code. Success stores the session; the router
 * then shows the page the visitor asked for.
 */
export function LoginForm() {
  const loginMutation = useLogin();
  const form = useForm<LoginInput>({
    resolver: validation.resolver,
    defaultValues: { username: "", password: "" },
  });
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const [expired, setExpired] = useState<string | null>(null);

  async function onSubmit(values: LoginInput) {
    setExpired(null);
    try {
      const user = await loginMutation.mutateAsync(values);
      // A second factor is due: no session yet, the second step asks for it.
      if ("secondFactorRequired" in user) return setChallenge(user);
      toast({ title: "Login successful", description: `Welcome, ${user.firstName || user.username}!` });
    } catch (error) {
      // Too many attempts (429) is said as the server says it; every other failure reads the same,
      // so the form never reveals whether a username exists.
      const description =
        error instanceof ApiError && error.status === 429 && error.serverMessage ? error.serverMessage : LOGIN_FAILED_TEXT;
      toast({ title: "Login failed", description, variant: "destructive" });
    }
  }

  const pending = loginMutation.isPending;

  if (challenge) {
    return (
      <Suspense
        fallback={
          <p role="status" className="py-6 text-center text-sm text-muted-foreground">
            Loading
          </p>
        }
      >
        <SecondFactorForm
          challenge={challenge}
          onBack={() => setChallenge(null)}
          onExpired={(message) => {
            setChallenge(null);
            setExpired(message);
          }}
        />
      </Suspense>
    );
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} {...validation.prefetchOnTouch} noValidate className="grid gap-5" aria-label="Sign in">
        {expired && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {expired}
          </p>
        )}
        <LabeledField control={form.control} name="username" label="Username">
          {(field) => <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...field} />}
        </LabeledField>
        <LabeledField control={form.control} name="password" label="Password">
          {(field) => <PasswordInput autoComplete="current-password" {...field} />}
        </LabeledField>
        <p className="-mt-2 text-right text-sm">
          <AuthLink href="/forgot-password">Forgot password?</AuthLink>
        </p>
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? "Signing in..." : "Sign in"}
        </Button>
        <PasskeySignIn />
        <p className="text-center text-sm text-muted-foreground">
          New to Quorum? <AuthLink href="/register">Register</AuthLink>
        </p>
      </form>
    </Form>
  );
}
