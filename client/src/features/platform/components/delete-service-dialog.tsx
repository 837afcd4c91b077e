import type { PlatformService } from "@shared/platform";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/** Asks before a service (and its stored key) is deleted: 'Are you sure you want to delete this service?' */
export function DeleteServiceDialog({
  service,
  onCancel,
  onConfirm,
  pending,
  confirmLabel = "Delete",
}: {
  /** The service to delete; null keeps the dialog closed. */
  service: PlatformService | null;
  onCancel: () => void;
  onConfirm: (service: PlatformService) => void;
  pending: boolean;
  confirmLabel?: string;
}) {
  return (
    <ConfirmDialog
      open={service !== null}
      title="Are you sure you want to delete this service?"
      description={service ? `${service.serviceName} and its stored key will be removed. This cannot be undone.` : ""}
      confirmLabel={confirmLabel}
      pendingLabel="Deleting..."
      pending={pending}
      onConfirm={() => service && onConfirm(service)}
      onClose={onCancel}
    />
  );
}
