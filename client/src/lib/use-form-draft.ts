import { useCallback, useEffect, useRef, useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";

/** Drafts live in local storage under this prefix and the caller's key. */
export const DRAFT_STORAGE_PREFIX = "quorum.draft.";
/** How long after the last keystroke a draft is written. */
export const DRAFT_SAVE_DELAY_MS = 500;
/** A draft older than this is no longer offered. */
export const DRAFT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

interface StoredDraft {
  savedAt: string;
  values: Record<string, unknown>;
}

export interface OfferedDraft<T> {
  values: T;
  savedAt: Date;
}

function readDraft(storageKey: string): StoredDraft | null {
  try {
    const raw = window.localStorage.getItem(storageKey);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<StoredDraft> | null;
    if (!parsed || typeof parsed.savedAt !== "string" || typeof parsed.values !== "object" || parsed.values === null) return null;
    return { savedAt: parsed.savedAt, values: parsed.values };
  } catch {
    return null;
  }
}

function removeDraft(storageKey: string): void {
  try {
    window.localStorage.removeItem(storageKey);
  } catch {
    // No storage (private mode): nothing was kept.
  }
}

/**
 * What a field may take back from a stored draft, for a field the default type rule cannot judge (one whose
 * default is undefined, such as an unchosen select, or a list of numbers): true to accept the value.
 */
export type DraftFieldChecks<T> = Partial<Record<keyof T & string, (value: unknown) => boolean>>;

/**
 * The stored values the form can take back: only its own fields, each of the type its default has (a list
 * of strings for a list), or as the field's own check says (a draft written by an older version of the
 * form, or edited by hand, never puts a wrong type in a field).
 */
function sanitize<T extends FieldValues>(values: Record<string, unknown>, defaults: T, checks: DraftFieldChecks<T>): T {
  const result: Record<string, unknown> = { ...defaults };
  for (const [name, fallback] of Object.entries(defaults)) {
    const value = values[name];
    const check = checks[name as keyof T & string];
    const accepted = check
      ? value !== undefined && check(value)
      : Array.isArray(fallback)
        ? Array.isArray(value) && value.every((item) => typeof item === "string")
        : typeof value === typeof fallback && value !== null;
    if (accepted) result[name] = value;
  }
  return result as T;
}

const sameValues = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The draft stored under `storageKey` that differs from the form's defaults and is recent enough, if any. */
function storedOffer<T extends FieldValues>(
  storageKey: string | null,
  defaults: T,
  now: Date,
  checks: DraftFieldChecks<T>,
): OfferedDraft<T> | null {
  if (storageKey === null) return null;
  const stored = readDraft(storageKey);
  if (!stored) return null;
  const savedAt = new Date(stored.savedAt);
  if (Number.isNaN(savedAt.getTime()) || now.getTime() - savedAt.getTime() > DRAFT_MAX_AGE_MS) {
    removeDraft(storageKey);
    return null;
  }
  const values = sanitize(stored.values, defaults, checks);
  return sameValues(values, defaults) ? null : { values, savedAt };
}

/**
 * Keeps an unsent form in local storage while it is being filled in, and offers it back the next time
 * the form opens. `key` names the form and whose it is (e.g. `meeting:new:<user>:<company>`); null turns
 * drafts off (the user's Auto-save Drafts switch). A form left as its defaults keeps no draft.
 * The form calls `clear()` once it has been sent; the screen shows `offered` with `restore()` and `discard()`.
 * `checks` judges the fields the default type rule cannot (see `DraftFieldChecks`); read when the form mounts.
 */
export function useFormDraft<T extends FieldValues>(
  form: UseFormReturn<T>,
  key: string | null,
  now: () => Date = () => new Date(),
  checks: DraftFieldChecks<T> = {},
) {
  const storageKey = key === null ? null : DRAFT_STORAGE_PREFIX + key;
  // The form's defaults when it mounted: a form still equal to them has nothing worth keeping.
  const [defaults] = useState(() => form.formState.defaultValues as T);
  const [fieldChecks] = useState(() => checks);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The clock, read when a draft is written (callers often pass a new function on each render).
  const clock = useRef(now);
  useEffect(() => {
    clock.current = now;
  });

  // What is on offer for the current key; worked out again when the key changes (drafts switched on, or
  // the user's switches arriving after the form opened).
  const [offer, setOffer] = useState<{ key: string | null; draft: OfferedDraft<T> | null }>(() => ({
    key: storageKey,
    draft: storedOffer(storageKey, defaults, now(), fieldChecks),
  }));
  if (offer.key !== storageKey) setOffer({ key: storageKey, draft: storedOffer(storageKey, defaults, now(), fieldChecks) });
  const offered = offer.key === storageKey ? offer.draft : null;
  const setOffered = useCallback((draft: OfferedDraft<T> | null) => setOffer({ key: storageKey, draft }), [storageKey]);

  const cancelPending = useCallback(() => {
    if (timer.current !== undefined) clearTimeout(timer.current);
    timer.current = undefined;
  }, []);

  useEffect(() => {
    if (storageKey === null) return;
    const save = (values: unknown) => {
      if (sameValues(values, defaults)) {
        // Back to an untouched form; a draft still on offer stays until the user decides.
        if (!offered) removeDraft(storageKey);
        return;
      }
      try {
        window.localStorage.setItem(storageKey, JSON.stringify({ savedAt: clock.current().toISOString(), values } as StoredDraft));
      } catch {
        // Storage full or unavailable: the form still works, it is just not kept.
      }
    };
    let pending: { values: unknown } | null = null;
    const subscription = form.watch((values) => {
      cancelPending();
      pending = { values: structuredClone(values) };
      timer.current = setTimeout(() => {
        timer.current = undefined;
        if (pending) save(pending.values);
        pending = null;
      }, DRAFT_SAVE_DELAY_MS);
    });
    return () => {
      subscription.unsubscribe();
      // Closing the form right after typing still keeps what was typed (unless clear() cancelled it).
      if (timer.current !== undefined && pending) save(pending.values);
      cancelPending();
    };
  }, [form, storageKey, cancelPending, offered, defaults]);

  /** Puts the offered draft into the form. */
  const restore = useCallback(() => {
    if (!offered) return;
    form.reset(offered.values, { keepDefaultValues: true });
    setOffered(null);
  }, [form, offered, setOffered]);

  /** Throws the offered draft away. */
  const discard = useCallback(() => {
    if (storageKey !== null) removeDraft(storageKey);
    setOffered(null);
  }, [storageKey, setOffered]);

  /** Forgets the draft: the form has been sent. */
  const clear = useCallback(() => {
    cancelPending();
    if (storageKey !== null) removeDraft(storageKey);
    setOffered(null);
  }, [storageKey, cancelPending, setOffered]);

  return { offered, restore, discard, clear };
}
