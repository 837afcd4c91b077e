import type { PlatformService } from "@shared/platform";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";

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
    <AlertDialog open={service !== null} onOpenChange={(open) => !open && !pending && onCancel()}>
      <AlertDialogContent className="sm:max-w-[500px]">
        <AlertDialogHeader>
          <AlertDialogTitle>Are you sure you want to delete this service?</AlertDialogTitle>
          <AlertDialogDescription>
            {service ? `${service.serviceName} and its stored key will be removed. This cannot be undone.` : ""}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog stays open until the deletion has answered. */}
          <Button variant="destructive" disabled={pending} onClick={() => service && onConfirm(service)}>
            {pending ? "Deleting..." : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
