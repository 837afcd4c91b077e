import { ArrowLeft } from "lucide-react";
import { Link } from "wouter";

/** The reader's title, with the way back to where it was opened from. */
export function ReaderHeader({ title, back, detail }: { title: string; back: { href: string; label: string }; detail?: string }) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <Link
        href={back.href}
        aria-label={back.label}
        className="rounded-md p-1 text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <ArrowLeft className="size-4" aria-hidden />
      </Link>
      <h1 className="min-w-0 truncate text-base font-semibold md:text-lg">{title}</h1>
      {detail && <span className="shrink-0 text-sm text-muted-foreground">{detail}</span>}
    </div>
  );
}
