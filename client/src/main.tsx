import { StrictMode } from "react";
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

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <AppRouter />
    </AppProviders>
  </StrictMode>,
);
