import {
  cloneElement,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
} from "react";
import { createPortal } from "react-dom";

/** How long a pointer rests on a button before its tooltip shows. */
export const TOOLTIP_DELAY_MS = 700;
/** Within this long after one tooltip closes, the next shows at once (moving along a toolbar). */
export const TOOLTIP_SKIP_DELAY_MS = 300;

interface TooltipSettings {
  enabled: boolean;
  delayMs: number;
  skipDelayMs: number;
  /** When a tooltip last closed, for the skip delay; shared by every tooltip under one provider. */
  lastClosedAt: { current: number };
}

const TooltipContext = createContext<TooltipSettings>({
  enabled: false,
  delayMs: TOOLTIP_DELAY_MS,
  skipDelayMs: TOOLTIP_SKIP_DELAY_MS,
  lastClosedAt: { current: 0 },
});

/** Turns tooltips on (or off) for everything inside; without a provider there are none. */
export function TooltipProvider({
  enabled = true,
  delayMs = TOOLTIP_DELAY_MS,
  skipDelayMs = TOOLTIP_SKIP_DELAY_MS,
  children,
}: {
  enabled?: boolean;
  delayMs?: number;
  skipDelayMs?: number;
  children: ReactNode;
}) {
  const lastClosedAt = useRef(0);
  const value = useMemo(() => ({ enabled, delayMs, skipDelayMs, lastClosedAt }), [enabled, delayMs, skipDelayMs]);
  return <TooltipContext.Provider value={value}>{children}</TooltipContext.Provider>;
}

type TriggerProps = {
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  "aria-describedby"?: string;
};

/**
 * A text label shown beside an icon-only button: after a pointer rests on it (700 ms; at once within
 * 300 ms of another closing) or at once when it gets keyboard focus; gone on leaving, blur, a press or
 * Escape. The bubble is `role="tooltip"` and the trigger points at it with aria-describedby while it shows.
 * It never takes the pointer or focus. `children` must be one element that passes props and ref to the DOM.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement<TriggerProps> }) {
  const settings = useContext(TooltipContext);
  const id = useId();
  const [open, setOpen] = useState(false);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const cancel = () => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  };
  const close = useCallback(() => {
    cancel();
    setOpen((wasOpen) => {
      if (wasOpen) settings.lastClosedAt.current = Date.now();
      return false;
    });
  }, [settings.lastClosedAt]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, close]);
  useEffect(() => cancel, []);

  // The same tree shape either way, so switching tooltips on or off never remounts (and unfocuses) the button.
  if (!settings.enabled) return <>{children}</>;

  const props = children.props;
  const trigger = cloneElement(children, {
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      props.onPointerEnter?.(event);
      if (event.pointerType === "touch") return;
      setAnchor(event.currentTarget);
      cancel();
      const skip = Date.now() - settings.lastClosedAt.current < settings.skipDelayMs;
      if (skip) setOpen(true);
      else timer.current = setTimeout(() => setOpen(true), settings.delayMs);
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      props.onPointerLeave?.(event);
      close();
    },
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      props.onPointerDown?.(event);
      close();
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      props.onFocus?.(event);
      // Keyboard focus only: a click also focuses, and a tooltip popping up under the pointer is noise.
      if (!event.currentTarget.matches(":focus-visible")) return;
      setAnchor(event.currentTarget);
      cancel();
      setOpen(true);
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      props.onBlur?.(event);
      close();
    },
    "aria-describedby": open ? [props["aria-describedby"], id].filter(Boolean).join(" ") : props["aria-describedby"],
  });

  return (
    <>
      {trigger}
      {open &&
        anchor &&
        createPortal(
          <TooltipBubble id={id} anchor={anchor}>
            {content}
          </TooltipBubble>,
          document.body,
        )}
    </>
  );
}

/** The bubble, below the trigger (above it when there is no room), kept inside the viewport. */
function TooltipBubble({ id, anchor, children }: { id: string; anchor: HTMLElement; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  useLayoutEffect(() => {
    const bubble = ref.current;
    if (!bubble) return;
    const target = anchor.getBoundingClientRect();
    const { width, height } = bubble.getBoundingClientRect();
    const gap = 6;
    const below = target.bottom + gap;
    const top = below + height <= window.innerHeight ? below : Math.max(gap, target.top - gap - height);
    const left = Math.min(Math.max(gap, target.left + target.width / 2 - width / 2), Math.max(gap, window.innerWidth - width - gap));
    setPosition({ top, left });
  }, [anchor]);
  return (
    <div
      ref={ref}
      id={id}
      role="tooltip"
      data-slot="tooltip"
      style={{ position: "fixed", top: position?.top ?? 0, left: position?.left ?? 0, visibility: position ? "visible" : "hidden" }}
      className="pointer-events-none z-50 max-w-xs rounded-md bg-foreground px-2.5 py-1.5 text-xs text-background shadow-md"
    >
      {children}
    </div>
  );
}
