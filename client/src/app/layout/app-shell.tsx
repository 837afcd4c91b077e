import { memo, useEffect, useState, type ReactNode } from "react";
import type { User } from "@shared/auth";
import { Header } from "@/app/layout/header";
import { Sidebar } from "@/app/layout/sidebar";
import { markFirstScreenDrawn } from "@/lib/first-screen";
import { useMediaQuery } from "@/lib/use-media-query";

/** Below Tailwind's `md` breakpoint (48rem, 768 px): the phone layout, where the sidebar is not shown. */
const NARROW_SCREEN = "(width < 48rem)";

/** The signed-in frame: sidebar on desktop, top bar with the slide-over menu on phones. */
export const AppShell = memo(function AppShell({
  user,
  isPlatformAdmin,
  onLogout,
  children,
}: {
  user: User;
  isPlatformAdmin: boolean;
  onLogout: () => void;
  children: ReactNode;
}) {
  const viewer = { role: user.role, isPlatformAdmin };
  // On a phone the sidebar is hidden (its entries are in the top bar's menu): it is not rendered there at all, which
  // spares a phone its render and the company block's read. Once rendered it stays, hidden by CSS when narrow: the
  // query can flip for a moment without the width crossing the breakpoint (Chromium does as it captures a whole
  // page), and unmounting would close the company switcher's open menu.
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [sidebarShown, setSidebarShown] = useState(!narrow);
  if (!narrow && !sidebarShown) setSidebarShown(true);
  // After the paint of the first screen (the frame of a requestAnimationFrame callback), the reads that waited for it.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(markFirstScreenDrawn, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return (
    <div className="flex min-h-dvh bg-background">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      {sidebarShown && <Sidebar user={user} viewer={viewer} onLogout={onLogout} className="sticky top-0 hidden h-dvh md:flex" />}
      <div className="flex min-w-0 flex-1 flex-col">
        <Header viewer={viewer} onLogout={onLogout} />
        <main id="main-content" tabIndex={-1} className="flex-1 px-4 py-6 outline-none md:px-8 md:py-8">
          <div className="mx-auto w-full max-w-6xl">{children}</div>
        </main>
      </div>
    </div>
  );
});
