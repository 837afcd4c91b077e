import type { QueryClient } from "@tanstack/react-query";
import { render, type RenderOptions } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactElement, ReactNode } from "react";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import type { User } from "@shared/auth";
import { AppProviders } from "@/app/providers";
import { AppRouter } from "@/app/router";
import { setAuthToken } from "@/lib/auth-token";
import { createQueryClient } from "@/lib/query-client";
import { signedInHandlers } from "@/testing/handlers";
import { server } from "@/testing/server";

export interface RenderWithProvidersOptions extends Omit<RenderOptions, "wrapper"> {
  /** The path the in-memory router starts at. */
  path?: string;
  /** Defaults to a fresh client with the app's defaults (one per test). */
  queryClient?: QueryClient;
}

/**
 * Renders `ui` inside the app's providers and an in-memory router. Returns Testing Library's
 * result plus the query client, a user-event instance and `currentPath()`.
 */
export function renderWithProviders(
  ui: ReactElement,
  { path = "/", queryClient = createQueryClient(), ...options }: RenderWithProvidersOptions = {},
) {
  const location = memoryLocation({ path, record: true });
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <AppProviders queryClient={queryClient}>
        <Router hook={location.hook}>{children}</Router>
      </AppProviders>
    );
  }
  const result = render(ui, { wrapper: Wrapper, ...options });
  return {
    ...result,
    queryClient,
    user: userEvent.setup(),
    /** The router's current path. */
    currentPath: () => location.history[location.history.length - 1],
    navigate: location.navigate,
  };
}

export const TEST_TOKEN = "test-session-token";

/**
 * Renders the whole app at `path`. With `signedInAs`, a token is stored and the server
 * answers that user (and `isPlatformAdmin` for the platform-admin check). With `token` instead,
 * only the token is stored: the test's own handlers answer for the user.
 */
export function renderApp({
  path = "/",
  signedInAs,
  isPlatformAdmin,
  token,
  queryClient,
}: { path?: string; signedInAs?: User; isPlatformAdmin?: boolean; token?: string; queryClient?: QueryClient } = {}) {
  if (signedInAs) {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(signedInAs, { isPlatformAdmin: isPlatformAdmin ?? signedInAs.isPlatformAdmin }));
  } else if (token) {
    setAuthToken(token);
  }
  return renderWithProviders(<AppRouter />, { path, queryClient });
}
