import { Gavel, Loader2, PenLine, Stamp } from "lucide-react";
import { useState } from "react";
import type { ApprovalRoute } from "@shared/meeting-record";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toast } from "@/components/ui/use-toast";
import { useApproveMinutes } from "@/features/meeting-record/api/minutes";
import { RecordErrors } from "@/features/meeting-record/components/record-section";
import { refusalOf, type Refusal } from "@/features/meeting-record/lib/refusal";

/**
 * Asks before a draft is rebuilt from the record (`improve` null: closed): the edits made to it are lost. The
 * parent closes it as the drafting starts; the section shows its progress.
 */
export function RedraftDialog({ improve, onCancel, onConfirm }: { improve: boolean | null; onCancel: () => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      open={improve != null}
      title={improve ? "Improve the wording?" : "Redraft the minutes?"}
      description={
        <>
          The minutes are drafted again from the meeting&apos;s record{improve ? " and reworded by the AI" : ""}: the edits made to the
          draft are replaced.
        </>
      }
      confirmLabel={improve ? "Improve wording" : "Redraft"}
      cancelLabel="Keep my draft"
      onConfirm={onConfirm}
      onClose={onCancel}
    />
  );
}

/** Who may sign the minutes as chair. */
export interface Signer {
  /** The chair recorded in the attendance, when there is one. */
  chairName: string | null;
  /** The signed-in user is that chair. */
  isChair: boolean;
  /** No chair is recorded: whoever keeps the record signs. */
  noChair: boolean;
}

/** 'Approve…': by proposing a resolution to the board (for those who keep the record), or at once by the chair's signature. */
function ApproveMinutesDialog({
  meetingId,
  open,
  onOpenChange,
  canPropose,
  signer,
  beforeApproving,
  onApproved,
}: {
  meetingId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  canPropose: boolean;
  signer: Signer;
  /** Saves the text being edited first; false when it could not be saved. */
  beforeApproving: () => Promise<boolean>;
  onApproved?: () => unknown;
}) {
  const approve = useApproveMinutes(meetingId, onApproved);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  // The recorded chair signs; when none is recorded, whoever keeps the record (the server says the same).
  const canSign = signer.isChair || (signer.noChair && canPropose);

  async function run(via: ApprovalRoute) {
    setRefusal(null);
    if (!(await beforeApproving())) {
      setRefusal({ message: "The minutes' latest text could not be saved: nothing was approved.", fields: [] });
      return;
    }
    try {
      await approve.mutateAsync(via);
      toast(
        via === "chair"
          ? { title: "Minutes approved", description: "Signed as chair; the PDF is filed in the library." }
          : { title: "Resolution proposed", description: "The board votes on approving the minutes." },
      );
      onOpenChange(false);
    } catch (error) {
      setRefusal(refusalOf(error, "The minutes could not be approved. Please try again."));
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setRefusal(null);
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Approve the minutes</DialogTitle>
          <DialogDescription>
            {canPropose && canSign
              ? "Propose a resolution for the board to vote on, or sign them as the meeting's chair."
              : canSign
                ? "Sign them as the meeting's chair."
                : "Propose a resolution for the board to vote on."}{" "}
            Once approved, the minutes no longer change.
          </DialogDescription>
        </DialogHeader>
        {!canSign && signer.chairName && (
          <p className="text-sm break-words text-muted-foreground">Only {signer.chairName}, the meeting&apos;s chair, can sign them.</p>
        )}
        <RecordErrors refusal={refusal} />
        <DialogFooter>
          {canPropose && (
            <Button variant={canSign ? "outline" : "default"} onClick={() => void run("resolution")} disabled={approve.isPending}>
              {approve.isPending && approve.variables === "resolution" ? (
                <Loader2 className="animate-spin" aria-hidden />
              ) : (
                <Gavel aria-hidden />
              )}
              Propose a resolution
            </Button>
          )}
          {canSign && (
            <Button onClick={() => void run("chair")} disabled={approve.isPending}>
              {approve.isPending && approve.variables === "chair" ? (
                <Loader2 className="animate-spin" aria-hidden />
              ) : (
                <PenLine aria-hidden />
              )}
              Sign as chair
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** 'Approve…' and its dialog. */
export function ApproveButton({
  meetingId,
  canPropose,
  signer,
  beforeApproving,
  onApproved,
}: {
  meetingId: number;
  canPropose: boolean;
  signer: Signer;
  beforeApproving?: () => Promise<boolean>;
  onApproved?: () => unknown;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <Button onClick={() => setOpen(true)}>
        <Stamp aria-hidden />
        Approve…
      </Button>
      <ApproveMinutesDialog
        meetingId={meetingId}
        open={open}
        onOpenChange={setOpen}
        canPropose={canPropose}
        signer={signer}
        beforeApproving={beforeApproving ?? (() => Promise.resolve(true))}
        onApproved={onApproved}
      />
    </div>
  );
}
