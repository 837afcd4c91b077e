import type { Tally } from "@shared/resolutions";
import { cn } from "@/lib/utils";

/** "Yes 3 · No 1 · Abstain 0", each count labelled for screen readers. */
export function VoteCountsLine({ counts, className }: { counts: Tally; className?: string }) {
  return (
    <dl className={cn("flex flex-wrap gap-x-4 gap-y-1 text-sm", className)}>
      {(
        [
          ["Yes", counts.yes, "text-success"],
          ["No", counts.no, "text-destructive"],
          ["Abstain", counts.abstain, "text-muted-foreground"],
        ] as const
      ).map(([label, count, tone]) => (
        <div key={label} className="flex items-baseline gap-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className={cn("font-semibold tabular-nums", tone)}>{count}</dd>
        </div>
      ))}
    </dl>
  );
}
