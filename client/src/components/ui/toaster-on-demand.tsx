import { lazy, Suspense, useState } from "react";
import { useToast } from "@/components/ui/use-toast";

const Toaster = lazy(async () => ({ default: (await import("@/components/ui/toaster")).Toaster }));

/**
 * The toaster, loaded with its Radix parts the first time something shows a toast and kept from then
 * on. The toast store holds the toast meanwhile, so nothing is lost; the page a visitor lands on does
 * not download the toaster until it is needed.
 */
export function ToasterOnDemand() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
