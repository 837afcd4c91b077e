import {
  useEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from "react";

/** What a popup's trigger opens: Radix's dropdown menu, Radix's dialog (the phone's slide-over menu) or Radix's select. */
export type PopupKind = "menu" | "dialog" | "listbox";

/** The press that opened the popup, replayed on the real trigger once the popup's code is there. */
type Press = { key: string } | { pointerType: string } | { click: true };

/** The keys that open Radix's dropdown menu, and its select, from their trigger. */
const OPEN_KEYS: Record<Exclude<PopupKind, "dialog">, readonly string[]> = {
  menu: ["Enter", " ", "ArrowDown"],
  listbox: [" ", "Enter", "ArrowUp", "ArrowDown"],
};

const downloads = new WeakMap<() => Promise<unknown>, Promise<unknown>>();
const downloaded = new WeakMap<() => Promise<unknown>, unknown>();

/** The popup's module: one download per loader, shared by every trigger; a failed one is tried again at the next press. */
function download<M>(load: () => Promise<M>): Promise<M> {
  let promise = downloads.get(load) as Promise<M> | undefined;
  if (!promise) {
    promise = load().then((module) => {
      downloaded.set(load, module);
      return module;
    });
    downloads.set(load, promise);
    promise.catch(() => downloads.delete(load));
  }
  return promise;
}

/** What the plain stand-in button takes: a closed popup's button to a screen reader, the press that opens the popup. */
export interface StandInProps {
  ref: RefObject<HTMLButtonElement | null>;
  "aria-haspopup": PopupKind;
  "aria-expanded": false;
  "data-state": "closed";
  onPointerEnter: () => void;
  onFocus: () => void;
  onPointerDown?: (event: ReactPointerEvent<HTMLButtonElement>) => void;
  onKeyDown?: (event: ReactKeyboardEvent<HTMLButtonElement>) => void;
  onClick?: (event: ReactMouseEvent<HTMLButtonElement>) => void;
}

/**
 * A dropdown menu or dialog whose code (Radix's, with the positioning library of a menu or the focus trap and scroll
 * lock of a dialog) loads when it is first opened, not with the page. `load` imports the module that draws the
 * popup with its trigger; define it once, outside the component.
 *
 * Until the module is there, `popup` is undefined and the caller draws the trigger as a plain button that looks the
 * same, spreading `standIn` on it: a closed popup's button to a screen reader (as Radix's trigger says it). The press
 * that opens Radix's popup downloads the module (for a menu, a primary pointer down without Ctrl, or Enter, Space or
 * ArrowDown; for a select, the same from a mouse, a click from a finger or pen, or ArrowUp too; for a dialog, a click,
 * which Enter and Space make too); the caller then draws the real popup, its
 * trigger taking `triggerRef`, and the press is replayed on that trigger, so the popup opens as Radix opens it, at
 * the first press, with focus in it (a menu opened from the keyboard on its first item). A pointer resting on the
 * button or focus on it starts the download early; the button itself is swapped only on a press, never under a
 * hover or a focus. An Escape, a Tab or a press elsewhere while the module downloads cancels the opening.
 */
export function usePopupOnDemand<M>(
  kind: PopupKind,
  load: () => Promise<M>,
): {
  popup: M | undefined;
  standIn: StandInProps;
  triggerRef: RefObject<HTMLButtonElement | null>;
} {
  const [popup, setPopup] = useState<M | undefined>(() => downloaded.get(load) as M | undefined);
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const press = useRef<Press | null>(null);
  // A click from the keyboard comes with no pointer down: as Radix's select, it counts as a finger's.
  const lastPointerType = useRef("touch");
  const stopWatching = useRef<(() => void) | null>(null);

  useEffect(() => () => stopWatching.current?.(), []);

  // The real popup has mounted: this effect runs after its own (Radix's keyboard tracking), being its parent's.
  useEffect(() => {
    const pending = press.current;
    const trigger = triggerRef.current;
    press.current = null;
    if (!popup || !pending || !trigger) return;
    if ("click" in pending) {
      // A click focuses a button before it opens the dialog, which gives focus back to it when it closes.
      trigger.focus();
      trigger.click();
    } else if ("key" in pending) {
      trigger.focus();
      trigger.dispatchEvent(new KeyboardEvent("keydown", { key: pending.key, bubbles: true, cancelable: true }));
    } else {
      const Pointer = typeof PointerEvent === "function" ? PointerEvent : MouseEvent;
      trigger.dispatchEvent(new Pointer("pointerdown", { pointerType: pending.pointerType, button: 0, bubbles: true, cancelable: true }));
    }
  }, [popup]);

  const pressed = (next: Press) => {
    if (press.current) return;
    press.current = next;
    const cancel = (event: Event) => {
      const elsewhere =
        event instanceof KeyboardEvent
          ? event.key === "Escape" || event.key === "Tab"
          : !(event.target instanceof Node && triggerRef.current?.contains(event.target));
      if (elsewhere) press.current = null;
    };
    document.addEventListener("keydown", cancel, true);
    document.addEventListener("pointerdown", cancel, true);
    stopWatching.current = () => {
      document.removeEventListener("keydown", cancel, true);
      document.removeEventListener("pointerdown", cancel, true);
    };
    const show = (module: M) => {
      stopWatching.current?.();
      if (press.current) setPopup(() => module);
    };
    const ready = downloaded.get(load) as M | undefined;
    if (ready) show(ready);
    else
      download(load).then(show, () => {
        stopWatching.current?.();
        press.current = null;
      });
  };

  const warm = () => void download(load).catch(() => undefined);
  const closed = {
    ref: triggerRef,
    "aria-haspopup": kind,
    "aria-expanded": false,
    "data-state": "closed",
    onPointerEnter: warm,
    onFocus: warm,
  } as const;

  if (kind === "dialog") return { popup, triggerRef, standIn: { ...closed, onClick: () => pressed({ click: true }) } };
  const openKeys = OPEN_KEYS[kind];
  // A select opens at a mouse's pointer down, but at a finger's or pen's click (it may be the start of a scroll).
  const opensAtPointerDown = (pointerType: string) => kind === "menu" || pointerType === "mouse";
  return {
    popup,
    triggerRef,
    standIn: {
      ...closed,
      onPointerDown: (event) => {
        lastPointerType.current = event.pointerType;
        if (event.button !== 0 || event.ctrlKey || !opensAtPointerDown(event.pointerType)) return;
        // As Radix's trigger: the button does not take focus; the popup will.
        event.preventDefault();
        // A select opened by a replayed pointer down would take the next pointer up for the end of that press and
        // ignore it: the user's, on an option, once the button has been let go while the code downloaded. So it opens
        // as from the keyboard.
        pressed(kind === "menu" ? { pointerType: event.pointerType } : { key: "Enter" });
      },
      onKeyDown: (event) => {
        if (!openKeys.includes(event.key)) return;
        event.preventDefault();
        pressed({ key: event.key });
      },
      ...(kind === "listbox" && {
        onClick: () => {
          if (!opensAtPointerDown(lastPointerType.current)) pressed({ click: true });
        },
      }),
    },
  };
}
