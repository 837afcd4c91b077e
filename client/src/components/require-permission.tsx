import { useEffect, type ReactNode } from "react";
import { useLocation } from "wouter";
import { AccessDeniedCard } from "@/components/access-denied-card";
import { CheckingPermissions } from "@/components/checking-permissions";
import { toast } from "@/components/ui/use-toast";

/** How a screen turns someone away. */
export type Refusal =
  /** In place of the page: the "Access Denied" card with this sentence. */
  | { card: string }
  /** Away to `redirectTo`, replacing the refused address in the history; with `toast`, an "Access Denied" toast says why. */
  | { redirectTo: string; toast?: string };

/**
 * The one way a screen says "not allowed". While `checking` (the server has not answered yet) it shows
 * "Checking permissions"; then `children` if `allowed`, else the `refusal`. The children are not rendered
 * until then, so nothing they load is requested for someone who may not see it. Whether someone is
 * allowed comes from shared/permissions (`can`, `canAdministerPlatform`), the rules the server applies.
 */
export function RequirePermission({
  allowed,
  checking = false,
  refusal,
  children,
}: {
  allowed: boolean;
  checking?: boolean;
  refusal: Refusal;
  children: ReactNode;
}) {
  if (checking) return <CheckingPermissions />;
  if (allowed) return children;
  if ("card" in refusal) return <AccessDeniedCard message={refusal.card} />;
  return <SendAway to={refusal.redirectTo} reason={refusal.toast} />;
}

function SendAway({ to, reason }: { to: string; reason?: string }) {
  const [, navigate] = useLocation();
  useEffect(() => {
    if (reason) toast({ title: "Access Denied", description: reason, variant: "destructive" });
    navigate(to, { replace: true });
  }, [to, reason, navigate]);
  return null;
}
