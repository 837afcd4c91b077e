import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AuthResponse } from "@shared/auth";
import type { Passkey, PasskeyLoginInput, PasskeyRegisterInput } from "@shared/second-factor";
import type { ReauthAnswer } from "@shared/identity";
import * as identityApi from "@shared/api/identity";
import * as api from "@shared/api/second-factor";
import { callApi } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";
import { authenticateOnThisDevice as authenticate, onThisDevice, PasskeyCancelledError } from "@/lib/webauthn";
import { startSession } from "@/features/auth/api/login";

// Passkeys: the caller's list, adding and removing one, and signing in with one. The browser's part of each ceremony
// is in lib/webauthn.ts, which loads the browser's WebAuthn library only when a ceremony starts.

export const passkeyKeys = { all: authKeys.passkeys() };

export { PasskeyCancelledError };

/** This device's proof that it holds one of the passkeys a sign-in's (or a re-authentication's) options allow. */
const authenticateOnThisDevice = (options: unknown) => authenticate<PasskeyLoginInput["response"]>(options);

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
