import { LogOut } from "lucide-react";
import { useState, type ReactElement } from "react";
import { BrandMark } from "@/components/brand-mark";
import { NavLink, navEntryClassName } from "@/app/layout/nav-link";
import { mobileNavItems } from "@/app/layout/nav-items";
import type { Viewer } from "@/app/route-table";
import { Sheet, SheetContent, SheetHeader, SheetTitle, SheetTrigger } from "@/components/ui/sheet";

/**
 * The top bar's slide-over menu (loaded when its button is first pressed, see MobileMenu): `trigger` is the button.
 * Choosing an entry closes it.
 */
export function MobileMenuSheet({ viewer, onLogout, trigger }: { viewer: Viewer; onLogout: () => void; trigger: ReactElement }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);

  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <SheetTrigger asChild>{trigger}</SheetTrigger>
      <SheetContent aria-describedby={undefined}>
        <SheetHeader className="flex-row items-center gap-2.5 border-b border-sidebar-border px-5 py-4">
          <BrandMark className="size-7" />
          <SheetTitle className="text-lg tracking-tight">
            Quorum <span className="sr-only">navigation</span>
          </SheetTitle>
        </SheetHeader>
        <nav aria-label="Mobile" className="px-3">
          <ul className="grid gap-1">
            {mobileNavItems(viewer).map((item) => (
              <li key={item.href}>
                <NavLink item={item} onNavigate={close} />
              </li>
            ))}
            <li>
              <button
                type="button"
                className={navEntryClassName}
                onClick={() => {
                  close();
                  onLogout();
                }}
              >
                <LogOut className="size-4 shrink-0" aria-hidden />
                Logout
              </button>
            </li>
          </ul>
        </nav>
      </SheetContent>
    </Sheet>
  );
}
