import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/** The page's one h1. */
export function PageTitle({ className, ...props }: ComponentProps<"h1">) {
  return <h1 className={cn("text-2xl font-semibold tracking-tight text-foreground md:text-3xl", className)} {...props} />;
}
