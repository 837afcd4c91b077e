import { Building2 } from "lucide-react";
import { cn } from "@/lib/utils";

/** A company's logo (an image data URL or https address), or a building icon without one. */
export function CompanyLogo({ logoUrl, className }: { logoUrl: string | null | undefined; className?: string }) {
  return (
    <span
      className={cn(
        "flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-md border border-sidebar-border bg-accent text-accent-foreground",
        className,
      )}
      aria-hidden
    >
      {logoUrl ? <img src={logoUrl} alt="" className="size-full object-cover" /> : <Building2 className="size-1/2" />}
    </span>
  );
}
