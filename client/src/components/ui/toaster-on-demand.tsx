import { Suspense, useState } from "react";
import { useToast } from "@/components/ui/use-toast";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";

const Toaster = loadOnDemand(() => import("@/components/ui/toaster"), "Toaster");

/**
 * The toaster, loaded with its Radix parts the first time something shows a toast and kept from then
 * on. The toast store holds the toast meanwhile, so nothing is lost; the page a visitor lands on does
 * not download the toaster until it is needed. WhenLoaded draws it as soon as its code is here, where a Suspense
 * boundary would hold it back until 300 ms after its fallback showed.
 */
export function ToasterOnDemand() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <WhenLoaded component={Toaster} placeholder={null} />
    </Suspense>
  );
}
