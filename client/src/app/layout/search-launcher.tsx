import { Search } from "lucide-react";
import { Suspense, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";

// The dialog (Radix's, the search's queries and result views) loads when search is first opened, or pointed at. WhenLoaded
// draws it as soon as its code is here, where a Suspense boundary would hold it back until 300 ms after its fallback showed.
const SearchDialogHost = loadOnDemand(() => import("@/app/search-dialog-host"), "SearchDialogHost");

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
        onPointerEnter={SearchDialogHost.preload}
        onFocus={SearchDialogHost.preload}
      >
        <Search className="size-5" aria-hidden />
      </Button>
      {used && (
        <Suspense fallback={null}>
          <WhenLoaded component={SearchDialogHost} placeholder={null} props={{ open, onOpenChange: setOpen }} />
        </Suspense>
      )}
    </>
  );
}
