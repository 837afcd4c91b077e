import { useEffect } from "react";
import { useTheme } from "@/components/theme-provider";
import { usePreferences } from "@/lib/preferences/get-preferences";

/** The attribute on <html> that tightens spacing app-wide (index.css shrinks Tailwind's spacing unit under it). */
export const DENSITY_ATTRIBUTE = "data-density";

/**
 * Makes the signed-in user's display switches take effect: Dark Mode drives the theme (kept locally too,
 * so a reload starts dark before the server answers; the server's value wins once it arrives, so the
 * choice follows the user to another browser), and Compact View marks <html> for the compact spacing.
 * Answers whether tooltips are wanted.
 */
export function useApplyPreferences(): { showTooltips: boolean } {
  const { preferences, isLoaded } = usePreferences();
  const { setTheme } = useTheme();

  useEffect(() => {
    if (isLoaded) setTheme(preferences.darkMode ? "dark" : "light");
  }, [isLoaded, preferences.darkMode, setTheme]);

  useEffect(() => {
    const root = document.documentElement;
    if (preferences.compactView) root.setAttribute(DENSITY_ATTRIBUTE, "compact");
    else root.removeAttribute(DENSITY_ATTRIBUTE);
    return () => root.removeAttribute(DENSITY_ATTRIBUTE);
  }, [preferences.compactView]);

  return { showTooltips: preferences.showTooltips };
}
