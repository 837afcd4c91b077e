import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { AppProviders } from "@/app/providers";
import { AppRouter, preloadSignedInApp } from "@/app/router";
import { applyTheme, DEFAULT_THEME, readStoredTheme, resolveTheme, systemPrefersDark } from "@/components/theme-provider";
import { createQueryClient } from "@/lib/query-client";
import "./index.css";

// Set the theme class before the first paint so a dark-mode user never sees a light flash.
applyTheme(resolveTheme(readStoredTheme() ?? DEFAULT_THEME, systemPrefersDark()));

const queryClient = createQueryClient();
preloadSignedInApp(queryClient);

const root = createRoot(document.getElementById("root")!);
// A transition: React renders the first screen in slices, yielding to the browser between them, where a plain
// render would evaluate the whole tree in one task that a slow phone cannot interrupt.
startTransition(() => {
  root.render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  );
});
