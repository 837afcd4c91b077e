import { lazy, Suspense } from "react";
import { Redirect, Route, Switch } from "wouter";
import { NotFoundPage, RegisterPage, signedInRoutes } from "@/app/route-table";
import { SignInPage } from "@/app/routes/sign-in";
import { useCurrentUser } from "@/lib/auth/get-current-user";

// The shell of the signed-in app (sidebar, menus, notifications) is its own chunk, so the sign-in
// page a visitor lands on loads only what it needs.
const SignedInRoutes = lazy(async () => ({ default: (await import("@/app/signed-in-routes")).SignedInRoutes }));

/** A plain 'Loading', shown while the current user is being requested (before any page, signed in or out). */
export function LoadingScreen() {
  return (
    <div role="status" className="flex min-h-dvh items-center justify-center text-sm text-muted-foreground">
      Loading
    </div>
  );
}

/**
 * Signed out: / is sign-in and /register registration. A signed-in route (an e-mailed link to
 * /meetings/5) shows sign-in in place, so the page appears once the visitor signs in.
 * /platform-settings sends signed-out visitors to / instead. Anything else is the 404 page.
 */
function SignedOutRoutes() {
  return (
    <Suspense fallback={<LoadingScreen />}>
      <Switch>
        <Route path="/" component={SignInPage} />
        <Route path="/register" component={RegisterPage} />
        <Route path="/platform-settings">
          <Redirect to="/" replace />
        </Route>
        {signedInRoutes.map(({ path }) => (
          <Route key={path} path={path} component={SignInPage} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}

/** Which routes exist depends on whether someone is signed in. */
export function AppRouter() {
  const { user, isLoading } = useCurrentUser();
  if (isLoading) return <LoadingScreen />;
  if (!user) return <SignedOutRoutes />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <SignedInRoutes user={user} />
    </Suspense>
  );
}
