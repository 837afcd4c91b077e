import type { QueryClient } from "@tanstack/react-query";
import { Suspense, useDeferredValue } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { startPage } from "@/app/page-data";
import { linkPages, NotFoundPage, RegisterPage, signedInPaths } from "@/app/signed-out-routes";
import { SignInPage } from "@/app/routes/sign-in";
import { currentUserQueryOptions, useCurrentUser } from "@/lib/auth/get-current-user";
import { getAuthToken } from "@/lib/auth-token";
import { waitForFirstScreen } from "@/lib/first-screen";
import { PageErrorBoundary } from "@/components/page-error-boundary";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";
import { cn } from "@/lib/utils";

// The shell of the signed-in app (sidebar, menus, notifications, the route table with its icons) is
// its own chunk, so the sign-in page a visitor lands on loads only what it needs. Sign-in itself ships
// with the main bundle and paints without a second round trip.
const loadSignedInRoutes = () => import("@/app/signed-in-routes");
const SignedInRoutes = loadOnDemand(loadSignedInRoutes, "SignedInRoutes");

/**
 * With a token stored, the visitor is most likely signed in: the request for the current user starts at once,
 * and beside it the shell and the page at the address download; the page's first reads start as soon as the
 * user (so the active company) is known, rather than after the page's code has arrived and rendered.
 * Signed out, nothing is fetched.
 */
export function preloadSignedInApp(queryClient: QueryClient): void {
  if (getAuthToken() === null) return;
  // The frame's reads the first screen can do without wait until it is drawn (lib/first-screen.ts).
  waitForFirstScreen();
  const path = window.location.pathname;
  // The app's own current-user query (same key) finds this request in flight; a refusal is its to handle.
  const user = queryClient.fetchQuery(currentUserQueryOptions());
  user.catch(() => undefined);
  // Only a head start: whatever fails here, the app asks again as it renders.
  void loadSignedInRoutes()
    .then(({ preloadPage }) => preloadPage(path))
    .catch(() => undefined);
  startPage(queryClient, path, user);
  // The class merger behind cn builds its tables on its first call (about 15 ms of a phone's main thread at
  // Lighthouse's 4x slowdown, lib/class-groups.ts). Here, while the page is still blank, rather than in the signed-in
  // app's first render.
  cn("p-0");
}

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
        <Route path="/register">
          <WhenLoaded component={RegisterPage} placeholder={<LoadingScreen />} />
        </Route>
        <Route path="/platform-settings">
          <Redirect to="/" replace />
        </Route>
        {signedInPaths.map((path) => (
          <Route key={path} path={path} component={SignInPage} />
        ))}
        <Route>
          <WhenLoaded component={NotFoundPage} placeholder={<LoadingScreen />} />
        </Route>
      </Switch>
    </Suspense>
  );
}

/**
 * The app's routes, and what shows when a page cannot be drawn. Which routes exist depends on whether someone is
 * signed in, except the pages an e-mail's link opens (/unsubscribe, /verify-email, /invite, /reset-password, and
 * /forgot-password that asks for one): the same page for everyone.
 */
export function AppRouter() {
  const [location] = useLocation();
  return (
    <PageErrorBoundary resetKey={location} className="p-6">
      <Routes />
    </PageErrorBoundary>
  );
}

function Routes() {
  const { user, isLoading } = useCurrentUser();
  // Once someone is signed in, the shell and its page mount at once. Deferred, that render runs in the background
  // in slices the browser can interrupt (not as one long task that blocks a phone's main thread) while 'Loading'
  // stays on screen. Signing out is not deferred: nothing of the signed-in app may linger or fetch after it.
  const signedInShown = useDeferredValue(user !== null);
  const [location] = useLocation();
  const linkPage = linkPages[location];
  if (linkPage && !(linkPage.needsUser && isLoading)) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <WhenLoaded component={linkPage.page} placeholder={<LoadingScreen />} />
      </Suspense>
    );
  }
  if (isLoading || (user && !signedInShown)) return <LoadingScreen />;
  if (!user) return <SignedOutRoutes />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <WhenLoaded component={SignedInRoutes} placeholder={<LoadingScreen />} props={{ user }} />
    </Suspense>
  );
}
