import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { setFreshProofPrompt } from "@/lib/api-client";

// The dialog (Radix's focus trap, the passkey helper) loads the first time a security change asks for it.
const ReauthDialog = lazy(async () => ({ default: (await import("@/features/auth/components/reauth-dialog")).ReauthDialog }));

interface Asking {
  resolve: () => void;
  reject: (reason: Error) => void;
}

/**
 * The one answer to a 401 `reauth_required`, whichever screen's call met it: the signed-in app mounts this once; a
 * refused call waits here while the dialog asks for the password, and is made again once it is proved. Calls refused
 * while the dialog is open wait for the same proof. Cancelling fails them all.
 */
export function FreshProofHost({ secondFactor }: { secondFactor: boolean }) {
  const [asking, setAsking] = useState<Asking | null>(null);
  const proof = useRef<Promise<void> | null>(null);
  const current = useRef<Asking | null>(null);

  useEffect(() => {
    setFreshProofPrompt(() => {
      proof.current ??= new Promise<void>((resolve, reject) => {
        current.current = { resolve, reject };
        setAsking(current.current);
      }).finally(() => {
        proof.current = null;
        current.current = null;
      });
      return proof.current;
    });
    return () => {
      setFreshProofPrompt(undefined);
      // Signed out meanwhile: the waiting calls fail.
      current.current?.reject(new Error("Signed out"));
    };
  }, []);

  if (!asking) return null;
  return (
    <Suspense fallback={null}>
      <ReauthDialog
        secondFactor={secondFactor}
        onProved={() => {
          asking.resolve();
          setAsking(null);
        }}
        onCancel={() => {
          asking.reject(new Error("Not confirmed"));
          setAsking(null);
        }}
      />
    </Suspense>
  );
}
