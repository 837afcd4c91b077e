import type { ReactNode } from "react";
import { Sheet, SheetContent, SheetTitle } from "@/components/ui/sheet";
import { cn } from "@/lib/utils";

/** A side panel of the reader: beside the pages on a wide screen, a sliding sheet on a narrow one. */
export function ReaderPanel({
  title,
  side,
  docked,
  open,
  onOpenChange,
  className,
  children,
}: {
  title: string;
  side: "left" | "right";
  docked: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  className?: string;
  children: ReactNode;
}) {
  if (docked) {
    if (!open) return null;
    return (
      <div className={cn("h-full shrink-0 overflow-y-auto bg-card p-3", side === "left" ? "border-r" : "border-l", className)}>
        {children}
      </div>
    );
  }
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        aria-describedby={undefined}
        className={cn("w-[85vw] max-w-sm bg-card text-card-foreground", side === "right" && "right-0 left-auto border-r-0 border-l")}
      >
        <SheetTitle className="sr-only">{title}</SheetTitle>
        <div className="h-full overflow-y-auto p-4 pt-12">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
