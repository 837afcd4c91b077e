import type { ReactNode } from "react";

/** A tab that has nothing to manage yet, or whose work happens elsewhere. */
export function ComingSoon({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2 rounded-xl border bg-card p-6 text-card-foreground shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="text-sm text-muted-foreground">{children}</p>
    </section>
  );
}
