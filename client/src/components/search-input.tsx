import { Search } from "lucide-react";
import type { ComponentProps } from "react";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

/** A search field with its magnifier: `label` names it for screen readers (e.g. "Search members"). */
export function SearchInput({ label, className, ...props }: Omit<ComponentProps<typeof Input>, "type" | "aria-label"> & { label: string }) {
  return (
    <div className={cn("relative max-w-md", className)}>
      <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
      <Input type="search" aria-label={label} className="pl-9" {...props} />
    </div>
  );
}
