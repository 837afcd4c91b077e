import { useRef } from "react";

type AutoFocusHandler = (event: Event) => void;

/**
 * Gives focus back to the element that had it when a Radix dialog opened. Radix only returns focus to its own
 * `Trigger`; our dialogs are mostly opened by a plain button through controlled `open` state, and Radix would then
 * leave focus on the page body. A caller's handler runs first and may `preventDefault()` to keep focus elsewhere.
 */
export function useReturnFocus(onOpenAutoFocus?: AutoFocusHandler, onCloseAutoFocus?: AutoFocusHandler) {
  const openerRef = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus(event: Event) {
      // Called before Radix moves focus into the dialog: the active element is still the opener.
      const active = document.activeElement;
      openerRef.current = active instanceof HTMLElement && active !== document.body ? active : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus(event: Event) {
      onCloseAutoFocus?.(event);
      const opener = openerRef.current;
      openerRef.current = null;
      // An opener that is gone (its row deleted, its page left) cannot take focus: Radix's own handling applies.
      if (event.defaultPrevented || !opener?.isConnected) return;
      event.preventDefault();
      opener.focus();
    },
  };
}
