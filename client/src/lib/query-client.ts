import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { noteSecondFactorRequired } from "@/lib/auth/second-factor-required";

/**
 * A QueryClient with the app's data-loading defaults: data never stale, no refetch
 * interval, no refetch on window focus, no retries. There is no default query function:
 * every query pairs its key with its own fetcher. Any request refused because the company requires a second
 * factor the user lacks marks that (lib/auth/second-factor-required.ts), whichever screen made it.
 * The app makes one in main.tsx; every test makes a fresh one.
 */
export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error) => noteSecondFactorRequired(queryClient, error) }),
    mutationCache: new MutationCache({ onError: (error) => noteSecondFactorRequired(queryClient, error) }),
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
