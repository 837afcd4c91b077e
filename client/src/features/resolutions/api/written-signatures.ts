import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/resolutions";
import * as secondFactorApi from "@shared/api/second-factor";
import type { ResolutionDetails } from "@shared/resolutions";
import type { SignDecision, SignResolutionInput } from "@shared/written-resolutions";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { authKeys } from "@/lib/auth/auth-keys";
import { markComplianceStale } from "@/lib/compliance-keys";
import { authenticateOnThisDevice } from "@/lib/webauthn";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

// Signing a written resolution: with a passkey over the statement the server issues, or with the password (and the
// authenticator code) again; withdrawing a signature; nudging a director who has not signed.

/** How the caller can sign: whether they hold a passkey, and whether their password needs a code from an app. */
export function useSigningMeans() {
  const passkeys = useQuery({ queryKey: authKeys.passkeys(), queryFn: () => callApi(secondFactorApi.listPasskeys) });
  const totp = useQuery({ queryKey: authKeys.totp(), queryFn: () => callApi(secondFactorApi.getTotpStatus) });
  return {
    isPending: passkeys.isPending || totp.isPending,
    hasPasskey: (passkeys.data?.length ?? 0) > 0,
    hasApp: totp.data?.enabled ?? false,
  };
}

export type Signature = { decision: SignDecision } & ({ via: "passkey" } | { via: "password"; password: string; code?: string });

/**
 * Signs a written resolution. A passkey: the statement and its WebAuthn request (sign-options), the browser's
 * assertion over it, then the signature; a PasskeyCancelledError when the browser did not complete it. A password:
 * the password and code go with the decision. Answers the resolution as it stands after the signature.
 */
export async function signWritten(id: number, signature: Signature): Promise<ResolutionDetails> {
  const { decision } = signature;
  if (signature.via === "password") {
    const code = signature.code?.trim();
    return callApi(api.signResolution, { params: { id }, body: { decision, password: signature.password, ...(code ? { code } : {}) } });
  }
  const { statement, options } = await callApi(api.signOptions, { params: { id }, body: { decision } });
  const response = await authenticateOnThisDevice<Extract<SignResolutionInput, { response: unknown }>["response"]>(options);
  return callApi(api.signResolution, { params: { id }, body: { decision, statement, response } });
}

/** The resolution's answer goes into its details; the lists, the pending panel and the compliance verdicts are read again. */
function useAfterSignature(id: number) {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return (details: ResolutionDetails) => {
    queryClient.setQueryData(resolutionKeys.detail(companyId, id), details);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: resolutionKeys.list(companyId), exact: true }),
      queryClient.invalidateQueries({ queryKey: resolutionKeys.pending(companyId), exact: true }),
      markComplianceStale(queryClient, companyId),
    ]);
  };
}

export function useSignWritten(id: number) {
  const after = useAfterSignature(id);
  return useMutation({ mutationFn: (signature: Signature) => signWritten(id, signature), onSuccess: after });
}

/** DELETE /api/resolutions/:id/signatures/mine → the resolution without the caller's signature. */
export function useWithdrawSignature(id: number) {
  const after = useAfterSignature(id);
  return useMutation({ mutationFn: () => callApi(api.withdrawSignature, { params: { id } }), onSuccess: after });
}

/** POST /api/resolutions/:id/nudge: reminds one director who has not signed (once a day each). */
export function useNudgeSigner(id: number) {
  return useMutation({ mutationFn: (userId: number) => callApi(api.nudgeSigner, { params: { id }, body: { userId } }) });
}
