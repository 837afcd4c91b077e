import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { recheckSessionAfter } from "@/lib/auth/get-current-user";
import { noteSecondFactorRequired } from "@/lib/auth/second-factor-required";

/**
 * A QueryClient with the app's data-loading defaults: data never stale, no refetch
 * interval, no refetch on window focus, no retries. There is no default query function:
 * every query pairs its key with its own fetcher. Any request refused because the company requires a second
 * factor the user lacks marks that (lib/auth/second-factor-required.ts), whichever screen made it; any answered 401
 * asks whether the session still stands (lib/auth/get-current-user.ts).
 * The app makes one in main.tsx; every test makes a fresh one.
 */
export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error) => noteFailure(queryClient, error) }),
    mutationCache: new MutationCache({ onError: (error) => noteFailure(queryClient, error) }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
  return queryClient;
}

function noteFailure(queryClient: QueryClient, error: unknown): void {
  noteSecondFactorRequired(queryClient, error);
  recheckSessionAfter(queryClient, error);
}
