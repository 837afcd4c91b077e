import { useEffect, useRef } from "react";

/**
 * A form that takes a button's place while it is open (a note being written or changed): once it closes, saved or
 * cancelled, the focus goes back to the button, where it would otherwise be lost with the form; unless it has moved
 * elsewhere meanwhile. Put `form` on the form's box and `button` on the button, and call `closing()` as it closes.
 */
export function useFocusBack<Box extends HTMLElement = HTMLDivElement>(open: boolean) {
  const form = useRef<Box>(null);
  const button = useRef<HTMLButtonElement>(null);
  const back = useRef(false);
  useEffect(() => {
    if (open || !back.current) return;
    back.current = false;
    button.current?.focus();
  }, [open]);
  const closing = () => {
    const active = document.activeElement;
    const box = form.current;
    // In the form, or lost from it (to the page, or to the sheet around it when the focused Save was disabled).
    back.current = !active || !box || box.contains(active) || active.contains(box);
  };
  return { form, button, closing };
}
