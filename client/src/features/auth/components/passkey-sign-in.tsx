import { useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { ApiError } from "@/lib/api-client";
import { startSession } from "@/features/auth/api/login";

export const PASSKEY_SIGN_IN_FAILED_TEXT = "Your passkey could not sign you in. Please try again.";

// The passkey calls and the browser's WebAuthn library load on the first press, not with the sign-in page.
let passkeys: Promise<typeof import("@/features/auth/api/passkeys")> | undefined;
function loadPasskeys() {
  passkeys ??= import("@/features/auth/api/passkeys").catch((error: unknown) => {
    passkeys = undefined; // a failed download is asked again next time
    throw error;
  });
  return passkeys;
}

/** "Sign in with a passkey": no username or password; the browser offers the passkeys it holds for this site. */
export function PasskeySignIn() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);

  async function onSignIn() {
    setPending(true);
    try {
      const { signInWithPasskey } = await loadPasskeys();
      const user = await signInWithPasskey();
      startSession(queryClient, user);
      toast({ title: "Login successful", description: `Welcome, ${user.firstName || user.username}!` });
    } catch (error) {
      const cancelled = error instanceof Error && error.name === "PasskeyCancelledError";
      const description = cancelled
        ? error.message
        : error instanceof ApiError && error.status === 429 && error.serverMessage
          ? error.serverMessage
          : PASSKEY_SIGN_IN_FAILED_TEXT;
      toast({ title: "Passkey sign-in failed", description, variant: "destructive" });
    } finally {
      setPending(false);
    }
  }

  return (
    <Button
      type="button"
      variant="outline"
      size="lg"
      className="w-full"
      disabled={pending}
      onPointerEnter={() => void loadPasskeys().catch(() => undefined)}
      onFocus={() => void loadPasskeys().catch(() => undefined)}
      onClick={() => void onSignIn()}
    >
      <KeyRound aria-hidden />
      {pending ? "Waiting for your passkey..." : "Sign in with a passkey"}
    </Button>
  );
}
