import { lazy, startTransition, useEffect, useReducer, type ComponentType, type LazyExoticComponent, type ReactNode } from "react";
import { loadOnce } from "@/lib/load-once";

/**
 * A component whose code downloads on demand (its own chunk), drawn by `WhenLoaded` with a placeholder of its own
 * until the code is here and then in an ordinary update, with no Suspense fallback shown on the way.
 *
 * Why not a Suspense boundary alone: React holds back a boundary's content until 300 ms after the last fallback it
 * showed, so that quick reveals in a row do not flash. On a first load the app shows 'Loading' about 50–100 ms before
 * a page's code and reads arrive, so the page then sat finished and idle for the rest of those 300 ms, and its
 * largest paint with it (a third of a phone's time to it, in Lighthouse's mobile run).
 */
export type LoadedOnDemand<Props> = LazyExoticComponent<ComponentType<Props>> & {
  /** Starts the download. A failed one is forgotten: drawing the component asks again, and a second failure throws. */
  preload: () => void;
  /** Its code is here, or the last download failed (drawing it then asks again). */
  settled: () => boolean;
  /** Settles as `settled` turns true; never rejects. */
  whenSettled: () => Promise<void>;
};

type Module<Props> = { default: ComponentType<Props> };

/** `name` of the module `load` imports, downloaded on first draw or `preload`. */
export function loadOnDemand<Name extends string, Props extends object = object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
): LoadedOnDemand<Props> {
  let loaded: Module<Props> | undefined;
  let failed = false;
  // A failure stays settled while the component, drawn, asks again: were it unsettled meanwhile, an unrelated update
  // could draw the placeholder again, and nothing would be waiting to draw the component when the code came.
  const start = loadOnce(() =>
    load().then(
      (module) => {
        failed = false;
        return (loaded = { default: module[name] });
      },
      (error: unknown) => {
        failed = true;
        throw error;
      },
    ),
  );
  // Once the code is here, React.lazy gets a thenable that answers at once, so it draws the component in that same
  // render: a promise, even a resolved one, answers a microtask later, and lazy suspends until it does.
  const component = lazy(() => (loaded ? answeredNow(loaded) : start()));
  return Object.assign(component, {
    preload: () => void start().catch(() => undefined),
    settled: () => loaded !== undefined || failed,
    whenSettled: () =>
      start().then(
        () => undefined,
        () => undefined,
      ),
  });
}

/** A promise already kept, whose `then` answers at once; React.lazy calls nothing else on it. */
function answeredNow<Value>(value: Value): Promise<Value> {
  const answered = {
    then(onFulfilled: (answer: Value) => unknown) {
      onFulfilled(value);
    },
  };
  return answered as unknown as Promise<Value>;
}

type WhenLoadedProps<Props extends object> = {
  component: LoadedOnDemand<Props>;
  /** Shown until the component's code is here. */
  placeholder: ReactNode;
} & (object extends Props ? { props?: Props } : { props: Props });

/**
 * Draws `component` once its code is here, `placeholder` until then (see LoadedOnDemand for why not Suspense). Keep a
 * Suspense boundary above it all the same, and an error boundary above that: after a failed download, drawing the
 * component downloads it again, and throws if that fails too.
 */
export function WhenLoaded<Props extends object>({ component: Component, placeholder, props }: WhenLoadedProps<Props>) {
  const [, redraw] = useReducer((draws: number) => draws + 1, 0);
  const settled = Component.settled();
  useEffect(() => {
    if (settled) return;
    let current = true;
    void Component.whenSettled().then(() => {
      // A transition: React draws the component in slices it can interrupt (an ordinary update is one long task),
      // and a transition, unlike a Suspense reveal, is not held back.
      if (current) startTransition(redraw);
    });
    return () => {
      current = false;
    };
  }, [Component, settled]);
  return settled ? <Component {...(props as Props)} /> : placeholder;
}
