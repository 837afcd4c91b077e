import { useSyncExternalStore } from "react";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";

const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function getAuthToken(): string | null {
  try {
    return window.localStorage.getItem(AUTH_TOKEN_KEY) || null;
  } catch {
    return null;
  }
}

export function setAuthToken(token: string): void {
  window.localStorage.setItem(AUTH_TOKEN_KEY, token);
  emit();
}

export function clearAuthToken(): void {
  window.localStorage.removeItem(AUTH_TOKEN_KEY);
  emit();
}

function onStorage(event: StorageEvent) {
  // Another tab signed in or out.
  if (event.key === AUTH_TOKEN_KEY || event.key === null) emit();
}

export function subscribeAuthToken(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener("storage", onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener("storage", onStorage);
  };
}

/** The stored token, re-rendering when it is set or cleared (in this tab or another). */
export function useAuthToken(): string | null {
  return useSyncExternalStore(subscribeAuthToken, getAuthToken, () => null);
}
