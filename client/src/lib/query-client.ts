import { QueryClient } from "@tanstack/react-query";

/**
 * A QueryClient with the app's data-loading defaults: data never stale, no refetch
 * interval, no refetch on window focus, no retries. There is no default query function:
 * every query pairs its key with its own fetcher.
 * The app makes one in main.tsx; every test makes a fresh one.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}
