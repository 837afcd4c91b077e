import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useCallback, useEffect, type ReactNode } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import type { User } from "@shared/auth";
import { signedInRoutes } from "@/app/route-table";

export { preloadPage } from "@/app/route-table";
import { NotFoundPage } from "@/app/signed-out-routes";
import { AppShell } from "@/app/layout/app-shell";
import { useLiveUpdates } from "@/app/live-updates";
import { TooltipProvider } from "@/components/ui/tooltip";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { useLogout } from "@/lib/auth/logout";
import { useSecondFactorRequired } from "@/lib/auth/second-factor-required";
import { useApplyPreferences } from "@/lib/preferences/apply-preferences";
import { companyKeys } from "@/features/companies/api/company-keys";
import { FreshProofHost } from "@/features/auth/components/fresh-proof-host";
import { PageErrorBoundary } from "@/components/page-error-boundary";
import { WhenLoaded } from "@/lib/load-on-demand";
// Part of the shell's own chunk, not loaded on demand: a newly registered account sees it on its first load, and
// a file of its own (with the resend call it shares with /verify-email) would add two files to that load.
import { EmailVerificationBanner } from "@/features/account/components/email-verification-banner";

// Shown only to a member of a company that requires a second factor they have not set up yet.
const SecondFactorRequiredScreen = lazy(async () => ({
  default: (await import("@/features/auth/components/second-factor-required-screen")).SecondFactorRequiredScreen,
}));

function PageLoading() {
  return (
    <div role="status" className="py-10 text-center text-sm text-muted-foreground">
      Loading
    </div>
  );
}

/** The signed-in app: the shell (sidebar, header, switcher) and its pages. Loaded only once someone is signed in. */
export function SignedInRoutes({ user }: { user: User }) {
  const [location] = useLocation();
  return (
    <SignedInFrame user={user}>
      {/* Within the frame, so a page that could not be drawn leaves the menu to open another. */}
      <PageErrorBoundary resetKey={location}>
        {/* Only a page whose download failed and is asked for again shows this: see WhenLoaded. */}
        <Suspense fallback={<PageLoading />}>
          <Switch>
            <Route path="/register">
              <Redirect to="/" replace />
            </Route>
            {signedInRoutes.map(({ path, page: Page, needsCompany }) => (
              <Route key={path} path={path}>
                {needsCompany && user.companyId == null ? (
                  <Redirect to="/company-onboarding" replace />
                ) : (
                  <WhenLoaded component={Page} placeholder={<PageLoading />} />
                )}
              </Route>
            ))}
            <Route>
              <WhenLoaded component={NotFoundPage} placeholder={<PageLoading />} />
            </Route>
          </Switch>
        </Suspense>
      </PageErrorBoundary>
    </SignedInFrame>
  );
}

/**
 * The shell around the page, with the reads only the shell needs (platform admin, the display switches). The
 * page comes in as `children`, made by SignedInRoutes, so when one of those reads answers React re-renders
 * the frame and leaves the page alone (the whole page re-rendered each time one of them answered); the shell
 * itself re-renders only if what it shows changed (a read answering what was assumed meanwhile changes nothing).
 */
function SignedInFrame({ user, children }: { user: User; children: ReactNode }) {
  const { isPlatformAdmin } = useIsPlatformAdmin();
  const logout = useLogout();
  const onLogout = useCallback(() => void logout(), [logout]);
  const queryClient = useQueryClient();
  // The user's display switches (dark mode, compact view, tooltips) apply to the whole signed-in app.
  const { showTooltips } = useApplyPreferences();
  // The active company refused a request until the user has a second factor: its set-up replaces the page.
  const secondFactorRequired = useSecondFactorRequired(user.companyId);
  // The server's live events keep the cached reads current while signed in.
  useLiveUpdates();

  // Once the server confirms a platform admin, the cached company list is fetched again.
  useEffect(() => {
    if (isPlatformAdmin) void queryClient.invalidateQueries({ queryKey: companyKeys.list(), exact: true });
  }, [isPlatformAdmin, queryClient]);

  return (
    <TooltipProvider enabled={showTooltips}>
      <AppShell user={user} isPlatformAdmin={isPlatformAdmin} onLogout={onLogout}>
        {/* Only while the user's address waits for its proof (or was taken by another account's). */}
        {!user.emailVerified && <EmailVerificationBanner email={user.email} />}
        {secondFactorRequired ? (
          <Suspense fallback={<PageLoading />}>
            <SecondFactorRequiredScreen />
          </Suspense>
        ) : (
          children
        )}
      </AppShell>
      <FreshProofHost secondFactor={user.secondFactor} />
    </TooltipProvider>
  );
}
