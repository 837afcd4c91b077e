import { useEffect, type ReactNode } from "react";
import { LoadError } from "@/components/load-error";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import type { Refusal } from "@/features/meeting-record/lib/refusal";

/** A card of the meeting's record, a region named by its heading; an address ending in `#id` brings it into view. */
export function RecordSection({ id, title, aside, children }: { id: string; title: string; aside?: ReactNode; children: ReactNode }) {
  // The card is drawn after the page (its code and data load later), so the browser's own jump to `#id` finds nothing.
  useEffect(() => {
    if (window.location.hash === `#${id}`) document.getElementById(id)?.scrollIntoView({ block: "start" });
  }, [id]);
  return (
    <Card id={id} aria-labelledby={`${id}-title`} role="region" className="scroll-mt-20">
      <CardHeader className="flex-row flex-wrap items-center gap-3">
        <h2 id={`${id}-title`} className="text-lg leading-tight font-semibold">
          {title}
        </h2>
        {aside}
      </CardHeader>
      <CardContent className="min-w-0">{children}</CardContent>
    </Card>
  );
}

export function SectionLoading({ label }: { label: string }) {
  return (
    <div className="grid gap-3" role="status" aria-label={label}>
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

export function SectionLoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return <LoadError message={`${what} could not be loaded.`} onRetry={onRetry} />;
}

/** The server's refusal of a change, with its reasons for each field. */
export function RecordErrors({ refusal }: { refusal: Refusal | null }) {
  if (!refusal) return null;
  return (
    <div role="alert" className="grid gap-1 rounded-md border border-destructive/50 p-3 text-sm text-destructive">
      <p className="font-medium break-words">{refusal.message}</p>
      {refusal.fields.length > 0 && (
        <ul className="list-disc pl-5">
          {refusal.fields.map((field) => (
            <li key={field} className="break-words">
              {field}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
