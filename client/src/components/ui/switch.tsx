import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

/**
 * An on/off switch: a button with the switch role, announced with its state, toggled by a click, Space or Enter (a
 * label for it clicks it too). A button of our own rather than Radix's: inside a form, Radix's measures a hidden input
 * beside it as it mounts, a forced layout in the page's first render, and only a native form submission reads it.
 */
export function Switch({
  className,
  checked = false,
  onCheckedChange,
  onClick,
  ...props
}: Omit<ComponentProps<"button">, "type" | "role" | "onChange"> & { checked?: boolean; onCheckedChange?: (checked: boolean) => void }) {
  const state = checked ? "checked" : "unchecked";
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      data-slot="switch"
      className={cn(
        "peer inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent shadow-xs transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-primary data-[state=unchecked]:bg-input",
        className,
      )}
      {...props}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) onCheckedChange?.(!checked);
      }}
    >
      <span
        data-slot="switch-thumb"
        data-state={state}
        className="pointer-events-none block size-5 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0"
      />
    </button>
  );
}
