import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ThemeProvider } from "@/components/theme-provider";
import { ToasterOnDemand } from "@/components/ui/toaster-on-demand";

/** Everything the app runs inside: data, theme and the toaster (loaded with the first toast). Tests use the same providers. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        {children}
        <ToasterOnDemand />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
