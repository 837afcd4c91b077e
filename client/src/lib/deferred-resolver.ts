import type { FieldValues, Resolver } from "react-hook-form";
import { loadOnce } from "@/lib/load-once";

/**
 * A form's validation kept in a chunk of its own, so the page paints without the schema library. `prefetch` asks
 * for the chunk (call it when the form is first focused or pressed: it is usually there before a submit); a
 * submit that comes first waits for it. A failed download is forgotten, so the next attempt asks again.
 */
export function deferredResolver<Values extends FieldValues>(
  load: () => Promise<Resolver<Values>>,
): {
  resolver: Resolver<Values>;
  prefetch: () => Promise<Resolver<Values>>;
  /** The form's handlers that prefetch: spread onto the <form>. */
  prefetchOnTouch: { onFocus: () => void; onPointerDown: () => void };
} {
  const prefetch = loadOnce(load);
  const resolver: Resolver<Values> = async (...args) => (await prefetch())(...args);
  const touched = () => void prefetch().catch(() => undefined);
  return { resolver, prefetch, prefetchOnTouch: { onFocus: touched, onPointerDown: touched } };
}
