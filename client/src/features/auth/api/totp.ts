import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { RecoveryCodes, TotpConfirmInput, TotpDisableInput, TotpSetup } from "@shared/second-factor";
import * as api from "@shared/api/second-factor";
import { callApi } from "@/lib/api-client";
import { authKeys } from "@/lib/auth/auth-keys";

/** GET /api/auth/totp → whether the authenticator app is on (a passkey alone also gives the user a second factor). */
export const totpStatusQuery = () => queryOptions({ queryKey: authKeys.totp(), queryFn: () => callApi(api.getTotpStatus) });

/** POST /api/auth/totp/setup → a new secret, as text and as a QR code; it counts once confirmed. */
export function setupTotp(): Promise<TotpSetup> {
  return callApi(api.setupTotp);
}

/** POST /api/auth/totp/confirm {code} → the 10 recovery codes, shown this once. */
export function confirmTotp(body: TotpConfirmInput): Promise<RecoveryCodes> {
  return callApi(api.confirmTotp, { body });
}

/** DELETE /api/auth/totp {password, code}: the app and its recovery codes go. */
export async function disableTotp(body: TotpDisableInput): Promise<void> {
  await callApi(api.disableTotp, { body });
}

export function useSetupTotp() {
  return useMutation({ mutationFn: setupTotp });
}

/** The user object says whether the user has a second factor, and the app's own status whether it is on: both are read again after a change. */
function useRefreshUser() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: authKeys.user(), exact: true }),
      queryClient.invalidateQueries({ queryKey: authKeys.totp(), exact: true }),
    ]);
}

export function useConfirmTotp() {
  const refreshUser = useRefreshUser();
  return useMutation({ mutationFn: confirmTotp, onSuccess: refreshUser });
}

export function useDisableTotp() {
  const refreshUser = useRefreshUser();
  return useMutation({ mutationFn: disableTotp, onSuccess: refreshUser });
}
