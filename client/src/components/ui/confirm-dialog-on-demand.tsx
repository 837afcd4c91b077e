import { Suspense, type ComponentProps } from "react";
import type { ConfirmDialog as LoadedConfirmDialog } from "@/components/ui/confirm-dialog";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";
import { useShownOnce } from "@/lib/use-shown-once";

const ConfirmDialog = loadOnDemand(() => import("@/components/ui/confirm-dialog"), "ConfirmDialog");

/**
 * A confirmation whose code (Radix's dialog, its focus trap and scroll lock) loads when it is first opened, not with
 * the page. From then on it stays mounted, so it closes with its animation and gives focus back as a dialog does.
 * WhenLoaded draws it as soon as its code is here, where a Suspense boundary would hold it back until 300 ms after its
 * fallback showed.
 */
export function ConfirmDialogOnDemand(props: ComponentProps<typeof LoadedConfirmDialog>) {
  const opened = useShownOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <WhenLoaded component={ConfirmDialog} placeholder={null} props={props} />
    </Suspense>
  );
}
