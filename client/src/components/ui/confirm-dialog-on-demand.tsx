import { lazy, Suspense, type ComponentProps } from "react";
import type { ConfirmDialog as LoadedConfirmDialog } from "@/components/ui/confirm-dialog";
import { useShownOnce } from "@/lib/use-shown-once";

const ConfirmDialog = lazy(async () => ({ default: (await import("@/components/ui/confirm-dialog")).ConfirmDialog }));

/**
 * A confirmation whose code (Radix's dialog, its focus trap and scroll lock) loads when it is first opened, not with
 * the page. From then on it stays mounted, so it closes with its animation and gives focus back as a dialog does.
 */
export function ConfirmDialogOnDemand(props: ComponentProps<typeof LoadedConfirmDialog>) {
  const opened = useShownOnce(props.open);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ConfirmDialog {...props} />
    </Suspense>
  );
}
