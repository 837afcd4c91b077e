import type { ComponentType } from "react";
import { loadOnDemand, type LoadedOnDemand } from "@/lib/load-on-demand";

/**
 * What the signed-out router needs, and nothing more: it ships with the sign-in page, so it holds no
 * icons, permission rules or page code. The signed-in route table (route-table.ts, loaded after sign-in)
 * lists the same addresses with their pages, titles and navigation.
 */

/** A code-split page: its route file is its own chunk, loaded on first visit (or on `preload`), drawn by WhenLoaded. */
export type LazyPage = LoadedOnDemand<object>;
export const lazyPage: <Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) => LazyPage = loadOnDemand;

export const RegisterPage = lazyPage(() => import("@/app/routes/register"), "RegisterPage");
export const NotFoundPage = lazyPage(() => import("@/app/routes/not-found"), "NotFoundPage");
/** Signed in or out alike, outside the app's shell: an e-mail's unsubscribe link. */
export const UnsubscribePage = lazyPage(() => import("@/app/routes/unsubscribe"), "UnsubscribePage");
export const ForgotPasswordPage = lazyPage(() => import("@/app/routes/forgot-password"), "ForgotPasswordPage");
export const ResetPasswordPage = lazyPage(() => import("@/app/routes/reset-password"), "ResetPasswordPage");
export const VerifyEmailPage = lazyPage(() => import("@/app/routes/verify-email"), "VerifyEmailPage");
export const InvitePage = lazyPage(() => import("@/app/routes/invite"), "InvitePage");

/**
 * The pages an e-mail's link opens (and the page that asks for a reset link), the same signed in or out, outside the
 * app's shell: a token, not a session, says what each is about. The unsubscribe page draws at once; the others first
 * learn whether someone is signed in.
 */
export const linkPages: Record<string, { page: LazyPage; needsUser: boolean }> = {
  "/unsubscribe": { page: UnsubscribePage, needsUser: false },
  "/forgot-password": { page: ForgotPasswordPage, needsUser: false },
  "/reset-password": { page: ResetPasswordPage, needsUser: false },
  "/verify-email": { page: VerifyEmailPage, needsUser: true },
  "/invite": { page: InvitePage, needsUser: true },
};

/**
 * Every address of a signed-in page, in the route table's order. Signed out, each one shows sign-in in
 * place (an e-mailed link to /meetings/5 opens once the visitor signs in).
 */
export const signedInPaths = [
  "/",
  "/dashboard",
  "/meetings",
  "/meetings/:id",
  "/meetings/:id/pack",
  "/documents",
  "/documents/:id/read",
  "/documents/:id/compare",
  "/resolutions",
  "/resolutions/:id",
  "/board-members",
  "/search",
  "/company-settings",
  "/settings",
  "/company-onboarding",
  "/admin-portal",
  "/admin-settings",
  "/platform-settings",
] as const;

export type SignedInPath = (typeof signedInPaths)[number];
