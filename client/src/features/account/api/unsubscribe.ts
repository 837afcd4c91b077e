import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { UnsubscribeTarget } from "@shared/notifications";
import { apiJson } from "@/lib/api-client";
import { preferenceKeys } from "@/lib/preferences/preference-keys";

const previewKey = (token: string) => ["/api/unsubscribe/preview", token] as const;

/** GET /api/unsubscribe/preview?token=… → the switch an e-mail's unsubscribe link turns off (it turns nothing off). */
export function getUnsubscribePreview(token: string): Promise<UnsubscribeTarget> {
  return apiJson<UnsubscribeTarget>("GET", `/api/unsubscribe/preview?token=${encodeURIComponent(token)}`);
}

/** POST /api/unsubscribe {token}: turns the switch off; works without signing in. */
export function unsubscribe(token: string): Promise<UnsubscribeTarget> {
  return apiJson<UnsubscribeTarget>("POST", "/api/unsubscribe", { token });
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
