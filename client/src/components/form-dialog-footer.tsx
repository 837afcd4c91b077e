import { Button } from "@/components/ui/button";
import { DialogFooter } from "@/components/ui/dialog";

/**
 * A form dialog's footer: Cancel, then the submit button, which reads `pendingLabel` and is disabled while the
 * form is being sent (`cancelDisabled` also holds Cancel then, where closing would lose the request's outcome).
 */
export function FormDialogFooter({
  onCancel,
  pending,
  submitLabel,
  pendingLabel,
  cancelDisabled = false,
}: {
  onCancel: () => void;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  cancelDisabled?: boolean;
}) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel} disabled={cancelDisabled}>
        Cancel
      </Button>
      <Button type="submit" disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </DialogFooter>
  );
}
