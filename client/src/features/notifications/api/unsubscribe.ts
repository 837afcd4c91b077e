import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/notifications";
import type { UnsubscribeTarget } from "@shared/notifications";
import { callApi } from "@/lib/api-client";
import { preferenceKeys } from "@/lib/preferences/preference-keys";

const previewKey = (token: string) => ["unsubscribe-preview", token] as const;

/** GET /api/unsubscribe/preview?token=… → the switch an e-mail's unsubscribe link turns off (it turns nothing off). */
export function getUnsubscribePreview(token: string): Promise<UnsubscribeTarget> {
  return callApi(api.unsubscribePreview, { query: { token } });
}

/** POST /api/unsubscribe {token}: turns the switch off; works without signing in. */
export function unsubscribe(token: string): Promise<UnsubscribeTarget> {
  return callApi(api.unsubscribe, { query: {}, body: { token } });
}

export function useUnsubscribePreview(token: string) {
  return useQuery({ queryKey: previewKey(token), queryFn: () => getUnsubscribePreview(token), enabled: token !== "" });
}

export function useUnsubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsubscribe,
    // Signed in as that user here, the switches shown in Settings change too.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: preferenceKeys.all() }),
  });
}
