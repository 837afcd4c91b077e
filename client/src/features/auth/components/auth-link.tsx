import type { ReactNode } from "react";
import { Link } from "wouter";

/** A link between the signing-in pages (sign in, register, forgot password). */
export function AuthLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link href={href} className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline">
      {children}
    </Link>
  );
}

/** The way back to signing in, under a form that led away from it. */
export function BackToSignIn() {
  return (
    <p className="text-center text-sm text-muted-foreground">
      <AuthLink href="/">Back to sign in</AuthLink>
    </p>
  );
}
