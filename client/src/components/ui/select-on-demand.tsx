import { ChevronDown } from "lucide-react";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";
import { selectTriggerClassName } from "@/components/ui/select-trigger-style";
import { cn } from "@/lib/utils";

// Radix's select, with its positioning library, focus trap and scroll lock, loads when the select is first pressed.
const loadSelect = () => import("@/components/ui/select");

export interface SelectOnDemandOption {
  value: string;
  label: string;
}

/**
 * A select whose list loads when it is first opened, for a page that shows the select but need not open it (a list's
 * filter). Until its code is there, a button that looks and reads the same (a closed combobox with the chosen option)
 * stands in for its trigger; the press that opens it is replayed on the real one.
 */
export function SelectOnDemand({
  label,
  value,
  options,
  onValueChange,
  className,
}: {
  /** Names the select for screen readers ("Filter by category"). */
  label: string;
  value: string;
  options: readonly SelectOnDemandOption[];
  onValueChange: (value: string) => void;
  className?: string;
}) {
  const { popup: select, standIn, triggerRef } = usePopupOnDemand("listbox", loadSelect);

  if (!select) {
    return (
      <button type="button" role="combobox" aria-label={label} className={cn(selectTriggerClassName, className)} {...standIn}>
        {/* As Radix's SelectValue draws the chosen option. */}
        <span style={{ pointerEvents: "none" }}>{options.find((option) => option.value === value)?.label}</span>
        <ChevronDown className="size-4 opacity-60" aria-hidden />
      </button>
    );
  }
  const { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } = select;
  return (
    <Select value={value} onValueChange={onValueChange}>
      <SelectTrigger ref={triggerRef} aria-label={label} className={className}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
