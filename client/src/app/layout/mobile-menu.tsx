import { Menu } from "lucide-react";
import type { ComponentProps } from "react";
import type { Viewer } from "@/app/route-table";
import { Button } from "@/components/ui/button";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";

// The slide-over (Radix's dialog, with its focus trap and scroll lock) loads when the menu button is first pressed:
// a wide screen never shows the button, and a phone's first load can do without it.
const loadSheet = () => import("@/app/layout/mobile-menu-sheet");

/**
 * Below 768 px: the menu button of the top bar and its slide-over (MobileMenuSheet). Until the slide-over's code is
 * there, the same button stands in for its trigger.
 */
export function MobileMenu({ viewer, onLogout }: { viewer: Viewer; onLogout: () => void }) {
  const { popup, standIn, triggerRef } = usePopupOnDemand("dialog", loadSheet);
  const button = (props: ComponentProps<"button">) => (
    <Button variant="ghost" size="icon" aria-label="Open menu" className="-ml-2 md:hidden" {...props}>
      <Menu className="size-5" aria-hidden />
    </Button>
  );
  if (!popup) return button(standIn);
  return <popup.MobileMenuSheet viewer={viewer} onLogout={onLogout} trigger={button({ ref: triggerRef })} />;
}
