import { CalendarDays, FileText, Gavel, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { BrandMark } from "@/components/brand-mark";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";

const highlights = [
  { icon: CalendarDays, text: "Schedule board meetings with agendas and participants" },
  { icon: Gavel, text: "Draft resolutions and record every director's vote" },
  { icon: FileText, text: "Keep board papers in one shared repository" },
];

/**
 * The signed-out frame: a brand panel beside the form on wide screens,
 * a single column with the product name above the card on phones.
 */
export function AuthLayout({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside className="relative hidden overflow-hidden bg-brand text-brand-foreground lg:flex lg:flex-col lg:justify-between lg:p-12">
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 opacity-40 [background:radial-gradient(60rem_40rem_at_-10%_-20%,oklch(0.45_0.12_262),transparent_60%),radial-gradient(40rem_30rem_at_110%_120%,oklch(0.4_0.08_230),transparent_60%)]"
        />
        <div className="relative flex items-center gap-3">
          <BrandMark className="size-9 [&_rect]:fill-brand-foreground/10" />
          <span className="text-xl font-semibold tracking-tight">Quorum</span>
        </div>
        <div className="relative max-w-md">
          <p className="text-3xl leading-tight font-semibold tracking-tight">Board governance, kept in one secure place.</p>
          <ul className="mt-8 grid gap-4">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-3 text-brand-muted">
                <span className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-md bg-brand-foreground/10">
                  <Icon className="size-4 text-brand-foreground" aria-hidden />
                </span>
                <span className="leading-relaxed">{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative flex items-center gap-2 text-sm text-brand-muted">
          <ShieldCheck className="size-4" aria-hidden />
          Sessions are private to your browser and end when you log out.
        </p>
      </aside>

      <main className="flex items-center justify-center px-4 py-10 sm:px-8">
        <div className="w-full max-w-md">
          <div className="mb-8 flex items-center justify-center gap-2.5 lg:hidden">
            <BrandMark />
            <span className="text-xl font-semibold tracking-tight">Quorum</span>
          </div>
          <Card className="gap-6 shadow-md">
            <CardHeader>
              <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
              <CardDescription>{description}</CardDescription>
            </CardHeader>
            <CardContent>{children}</CardContent>
          </Card>
        </div>
      </main>
    </div>
  );
}
