import type { ReactNode } from "react";
import { PageTitle } from "@/components/page-title";
import { cn } from "@/lib/utils";

/**
 * The top of a page: its one h1, a line saying what the page is for, and the page's main actions
 * (New Meeting, Add Member...) beside them, or below them on a narrow screen.
 */
export function PageHeader({
  title,
  description,
  actions,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-wrap items-end justify-between gap-4", className)}>
      <div className="grid min-w-0 gap-1">
        <PageTitle>{title}</PageTitle>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
