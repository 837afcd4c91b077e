import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse } from "@shared/auth";
import type { Passkey, PasskeyLoginInput, PasskeyRegisterInput } from "@shared/second-factor";
import type { ReauthAnswer } from "@shared/identity";
import * as identityApi from "@shared/api/identity";
import * as api from "@shared/api/second-factor";
import { callApi } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";
import { startSession } from "@/features/auth/api/login";

// Passkeys: the caller's list, adding and removing one, and signing in with one. The browser's WebAuthn library is
// loaded only when a ceremony starts, so the sign-in page's first load does not carry it.

export const passkeyKeys = { all: ["auth", "passkeys"] as const };

/** A ceremony the browser did not complete: the user cancelled, it timed out, or this device cannot do it. */
export class PasskeyCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PasskeyCancelledError";
  }
}

/** What to tell the user when the browser refused a ceremony (the library's WebAuthnError, or the DOMException). */
function browserRefusal(error: unknown, registering: boolean): PasskeyCancelledError | null {
  if (!(error instanceof Error)) return null;
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || error.name === "InvalidStateError") {
    return new PasskeyCancelledError("This device already holds a passkey for your account.");
  }
  if (error.name === "NotAllowedError" || code === "ERROR_CEREMONY_ABORTED" || error.name === "AbortError") {
    return new PasskeyCancelledError(
      registering
        ? "No passkey was added: the request was cancelled or timed out."
        : "No passkey was used: the request was cancelled or timed out.",
    );
  }
  if (error.name === "NotSupportedError" || error.name === "SecurityError" || code.startsWith("ERROR_")) {
    return new PasskeyCancelledError("This browser or device cannot use a passkey here.");
  }
  if (/WebAuthn is not supported/i.test(error.message)) return new PasskeyCancelledError("This browser does not support passkeys.");
  return null;
}

const loadBrowserLibrary = () => import("@simplewebauthn/browser");
type BrowserLibrary = Awaited<ReturnType<typeof loadBrowserLibrary>>;

/** Runs the browser's part of a ceremony (it asks the user); a refusal becomes a PasskeyCancelledError that says why. */
async function onThisDevice<Answer>(ceremony: (library: BrowserLibrary) => Promise<unknown>, registering: boolean): Promise<Answer> {
  const library = await loadBrowserLibrary();
  try {
    return (await ceremony(library)) as Answer;
  } catch (error) {
    throw browserRefusal(error, registering) ?? error;
  }
}

/** This device's proof that it holds one of the passkeys a sign-in's (or a re-authentication's) options allow. */
function authenticateOnThisDevice(options: unknown): Promise<PasskeyLoginInput["response"]> {
  return onThisDevice(
    ({ startAuthentication }) => startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"] }),
    false,
  );
}

/** GET /api/auth/passkeys: the caller's passkeys. */
export function listPasskeys(): Promise<Passkey[]> {
  return callApi(api.listPasskeys);
}

export const passkeysQueryOptions = () => queryOptions({ queryKey: passkeyKeys.all, queryFn: listPasskeys });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}

/** Creates a passkey on this device (the browser asks the user) and registers it under `name`. */
export async function addPasskey(name: string): Promise<Passkey> {
  const { options } = await callApi(api.passkeyRegisterOptions);
  const response = await onThisDevice<PasskeyRegisterInput["response"]>(
    ({ startRegistration }) =>
      startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]["optionsJSON"] }),
    true,
  );
  return callApi(api.registerPasskey, { body: { name, response } });
}

/** Adding or removing a passkey changes the list and the user's second-factor flag. */
function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: passkeyKeys.all }),
      queryClient.invalidateQueries({ queryKey: authKeys.user() }),
    ]);
}

export function useAddPasskey() {
  const refresh = useRefreshAfterChange();
  return useMutation({ mutationFn: addPasskey, onSuccess: refresh });
}

/** DELETE /api/auth/passkeys/:id */
export function removePasskey(id: number): Promise<void> {
  return callApi(api.deletePasskey, { params: { id } });
}

export function useRemovePasskey() {
  const refresh = useRefreshAfterChange();
  return useMutation({ mutationFn: removePasskey, onSuccess: refresh });
}

/**
 * Signs in with a passkey: the options, the browser's ceremony, the answer; answers what a sign-in answers and
 * starts no session itself. Without `signInChallenge`, any passkey of this site on the device signs in alone; with
 * the challenge of a sign-in whose password was right (`methods` includes "passkey"), it is that sign-in's second
 * step, and only that user's passkeys are offered. Throws PasskeyCancelledError when the browser did not complete
 * it, and ApiError (401) when the server refused the answer or the sign-in expired.
 */
export async function signInWithPasskey({ signInChallenge }: { signInChallenge?: string } = {}): Promise<AuthResponse> {
  const { challenge, options } = await callApi(api.passkeyLoginOptions, { body: signInChallenge ? { challenge: signInChallenge } : {} });
  const response = await authenticateOnThisDevice(options);
  return callApi(api.loginWithPasskey, { body: { challenge, response } });
}

/** signInWithPasskey, and a success starts the session as a password sign-in does. */
export function usePasskeySignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: (response) => startSession(queryClient, response),
  });
}

/**
 * Proves again who holds this session with one of the user's passkeys (the browser asks for the fingerprint, face or
 * PIN): security changes are then allowed for a while. Throws PasskeyCancelledError when the browser did not complete
 * it, and ApiError when the server refused the answer or the user has no passkey.
 */
export async function reauthenticateWithPasskey(): Promise<ReauthAnswer> {
  const { challenge, options } = await callApi(identityApi.reauthPasskeyOptions);
  const response = await authenticateOnThisDevice(options);
  return callApi(identityApi.reauthWithPasskey, { body: { challenge, response } });
}
