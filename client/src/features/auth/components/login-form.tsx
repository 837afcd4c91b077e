import { useForm, type Resolver } from "react-hook-form";
import { Link } from "wouter";
import type { LoginInput } from "@shared/auth";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { toast } from "@/components/ui/use-toast";
import { ApiError } from "@/lib/api-client";
import { useLogin } from "@/features/auth/api/login";
import { isSecondFactorChallenge } from "@shared/second-factor";

const LOGIN_FAILED_TEXT = "Invalid username or password. Please try again.";

// The validation chunk is requested when the visitor first focuses or presses on the form, so it
// is usually there before they submit; a submit that comes first simply waits for it.
let validation: ReturnType<typeof loadValidation> | undefined;
function loadValidation() {
  return import("@/features/auth/lib/login-resolver");
}
function prefetchValidation() {
  // A failed download is forgotten, so the next attempt asks again.
  validation ??= loadValidation().catch((error: unknown) => {
    validation = undefined;
    throw error;
  });
  return validation;
}
const loginResolver: Resolver<LoginInput> = async (...args) => (await prefetchValidation()).loginResolver(...args);

/** Sign-in: username and password. Success stores the session; the router then shows the page the visitor asked for. */
export function LoginForm() {
  const loginMutation = useLogin();
  const form = useForm<LoginInput>({
    resolver: loginResolver,
    defaultValues: { username: "", password: "" },
  });

  async function onSubmit(values: LoginInput) {
    try {
      const user = await loginMutation.mutateAsync(values);
      // TODO(second factor): the second step's form; until then the sign-in stops here.
      if (isSecondFactorChallenge(user)) return;
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

  return (
    <Form {...form}>
      <form
        onSubmit={form.handleSubmit(onSubmit)}
        onFocus={() => void prefetchValidation()}
        onPointerDown={() => void prefetchValidation()}
        noValidate
        className="grid gap-5"
        aria-label="Sign in"
      >
        <LabeledField control={form.control} name="username" label="Username">
          {(field) => <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...field} />}
        </LabeledField>
        <LabeledField control={form.control} name="password" label="Password">
          {(field) => <PasswordInput autoComplete="current-password" {...field} />}
        </LabeledField>
        <Button type="submit" size="lg" className="w-full" disabled={pending}>
          {pending ? "Signing in..." : "Sign in"}
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          New to Quorum?{" "}
          <Link href="/register" className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline">
            Register
          </Link>
        </p>
      </form>
    </Form>
  );
}
