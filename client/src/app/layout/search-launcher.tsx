import { Search } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

// The dialog (Radix's, the search's queries and result views) loads when search is first opened.
const loadDialog = () => import("@/app/search-dialog-host");
const SearchDialogHost = lazy(async () => ({ default: (await loadDialog()).SearchDialogHost }));
const warm = () => void loadDialog().catch(() => undefined);

/** Ctrl-K, or Cmd-K on a Mac: the keys most apps open their search with. */
export function isSearchShortcut(event: KeyboardEvent): boolean {
  return event.key.toLowerCase() === "k" && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/** The header's Search button and the Ctrl-K / Cmd-K shortcut anywhere in the signed-in app, both opening the search dialog. */
export function SearchLauncher() {
  const [open, setOpen] = useState(false);
  // Drawn from the first opening on, so closing it keeps the last search.
  const [used, setUsed] = useState(false);
  const show = () => {
    setUsed(true);
    setOpen(true);
  };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event)) return;
      // The browser's own Ctrl-K (its address bar's search) gives way to the app's.
      event.preventDefault();
      setUsed(true);
      setOpen(true);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Search"
        aria-keyshortcuts="Control+K Meta+K"
        onClick={show}
        onPointerEnter={warm}
        onFocus={warm}
      >
        <Search className="size-5" aria-hidden />
      </Button>
      {used && (
        <Suspense fallback={null}>
          <SearchDialogHost open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
