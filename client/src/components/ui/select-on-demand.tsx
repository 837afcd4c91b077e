import { ChevronDown } from "lucide-react";
import type { ComponentProps, Ref, RefObject } from "react";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";
import { selectTriggerClassName } from "@/components/ui/select-trigger-style";
import { cn } from "@/lib/utils";

// Radix's select, with its positioning library, focus trap and scroll lock, loads when the select is first pressed.
const loadSelect = () => import("@/components/ui/select");

export interface SelectOnDemandOption {
  value: string;
  label: string;
}

/** One element, two refs: the popup's own (which replays the press) and the caller's (a form focusing a field). */
function bothRefs(own: RefObject<HTMLButtonElement | null>, theirs: Ref<HTMLButtonElement> | undefined) {
  return (node: HTMLButtonElement | null) => {
    own.current = node;
    if (typeof theirs === "function") theirs(node);
    else if (theirs) theirs.current = node;
  };
}

/**
 * A select whose list loads when it is first opened, for a page that shows the select but need not open it (a list's
 * filter, a form's field). Until its code is there, a button that looks and reads the same (a closed combobox with the
 * chosen option, or the placeholder) stands in for its trigger; the press that opens it is replayed on the real one.
 * Other props (an id, aria-describedby, aria-invalid from a form's control, onBlur) go to whichever button is drawn.
 */
export function SelectOnDemand({
  label,
  value,
  options,
  onValueChange,
  placeholder,
  disabled,
  name,
  className,
  ref,
  ...buttonProps
}: {
  /** Names the select for screen readers ("Filter by category"), when no label element does. */
  label?: string;
  value: string;
  options: readonly SelectOnDemandOption[];
  onValueChange: (value: string) => void;
  placeholder?: string;
  disabled?: boolean;
  name?: string;
  className?: string;
  ref?: Ref<HTMLButtonElement>;
} & Pick<ComponentProps<"button">, "id" | "onBlur" | "aria-describedby" | "aria-invalid">) {
  const { popup: select, standIn, triggerRef } = usePopupOnDemand("listbox", loadSelect);

  if (!select) {
    const chosen = options.find((option) => option.value === value);
    return (
      <button
        type="button"
        role="combobox"
        aria-label={label}
        disabled={disabled}
        // As Radix's trigger marks a select without a value: drawn muted.
        data-placeholder={chosen ? undefined : ""}
        className={cn(selectTriggerClassName, className)}
        {...buttonProps}
        {...standIn}
        ref={bothRefs(standIn.ref, ref)}
      >
        {/* As Radix's SelectValue draws the chosen option. */}
        <span style={{ pointerEvents: "none" }}>{chosen?.label ?? placeholder}</span>
        <ChevronDown className="size-4 opacity-60" aria-hidden />
      </button>
    );
  }
  const { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } = select;
  return (
    <Select value={value} onValueChange={onValueChange} name={name} disabled={disabled}>
      <SelectTrigger {...buttonProps} ref={bothRefs(triggerRef, ref)} aria-label={label} className={className}>
        <SelectValue placeholder={placeholder} />
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
