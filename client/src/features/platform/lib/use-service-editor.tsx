import { useState, type ReactElement } from "react";
import type { PlatformService } from "@shared/platform";
import { toast } from "@/components/ui/use-toast";
import { useDeletePlatformService } from "@/features/platform/api/delete-platform-service";
import { DeleteServiceDialog } from "@/features/platform/components/delete-service-dialog";
import { ServiceDialog } from "@/features/platform/components/service-dialog";
import { removeFailedToast, removedToast, serviceScreens, type ServiceScreen } from "@/features/platform/lib/service-variants";

export interface ServiceEditor {
  openAdd: () => void;
  openEdit: (service: PlatformService) => void;
  /** Asks for confirmation before the service is deleted. */
  askToDelete: (service: PlatformService) => void;
  /** The add/edit dialog and the delete confirmation; render them once in the screen. */
  dialogs: ReactElement;
}

/**
 * What every screen that lists platform services does the same way: the add/edit dialog, the confirmed
 * delete and the screen's toasts, all worded for `screen`.
 */
export function useServiceEditor(screen: ServiceScreen): ServiceEditor {
  const deleteMutation = useDeletePlatformService();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [selected, setSelected] = useState<PlatformService | null>(null);
  const [toDelete, setToDelete] = useState<PlatformService | null>(null);

  const openAdd = () => {
    setSelected(null);
    setDialogOpen(true);
  };
  const openEdit = (service: PlatformService) => {
    setSelected(service);
    setDialogOpen(true);
  };

  async function remove(service: PlatformService) {
    try {
      await deleteMutation.mutateAsync(service.id);
      toast(removedToast(screen, service.serviceName));
    } catch (error) {
      toast(removeFailedToast(screen, error));
    } finally {
      setToDelete(null);
    }
  }

  const dialogs = (
    <>
      <ServiceDialog screen={screen} open={dialogOpen} onOpenChange={setDialogOpen} service={selected} onSaved={() => setSelected(null)} />
      <DeleteServiceDialog
        service={toDelete}
        pending={deleteMutation.isPending}
        confirmLabel={serviceScreens[screen].confirmDelete}
        onCancel={() => setToDelete(null)}
        onConfirm={(service) => void remove(service)}
      />
    </>
  );

  return { openAdd, openEdit, askToDelete: setToDelete, dialogs };
}
