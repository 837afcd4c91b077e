import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

/** A read that failed: what could not be loaded, announced as it appears, and a button to ask again. */
export function LoadError({ message, onRetry }: { message: ReactNode; onRetry: () => void }) {
  return (
    <div className="grid justify-items-start gap-3" role="alert">
      <p className="text-sm text-destructive">{message}</p>
      <Button type="button" variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
