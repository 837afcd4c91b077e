import { cn } from "@/lib/utils";

/** Quorum's mark: a "Q" ring on the brand navy. Decorative; the product name is always written beside it. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden focusable="false" className={cn("size-8 shrink-0", className)}>
      <rect width="32" height="32" rx="7" fill="currentColor" className="text-brand" />
      <path
        d="M16 7a9 9 0 1 0 5.6 16.05l2.7 2.7 2.1-2.1-2.7-2.7A9 9 0 0 0 16 7Zm0 3a6 6 0 1 1 0 12 6 6 0 0 1 0-12Z"
        className="fill-brand-foreground"
      />
    </svg>
  );
}
