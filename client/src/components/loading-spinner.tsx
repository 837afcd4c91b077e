import { Loader2 } from "lucide-react";
import { cn } from "@/lib/utils";

/** A spinner with a name for screen readers. */
export function LoadingSpinner({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" aria-label={label} className={cn("flex justify-center py-12 text-muted-foreground", className)}>
      <Loader2 className="size-8 animate-spin" aria-hidden />
    </div>
  );
}
