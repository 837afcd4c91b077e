import { FileText, Gavel, Loader2, Send, Sparkles } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "wouter";
import type { Minutes, MinutesDraft } from "@shared/meeting-record";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { formatLongDate } from "@/lib/format";
import { usePreferences } from "@/lib/preferences/get-preferences";
import { useCirculateMinutes, useDraftMinutes } from "@/features/meeting-record/api/minutes";
import { MinutesText } from "@/features/meeting-record/components/approved-minutes";
import { ApproveButton, RedraftDialog, type Signer } from "@/features/meeting-record/components/minutes-dialogs";
import { MinutesEditor, type SaveMinutesNow } from "@/features/meeting-record/components/minutes-editor";
import { RecordErrors } from "@/features/meeting-record/components/record-section";
import { refusalOf, type Refusal } from "@/features/meeting-record/lib/refusal";

export const NO_AI_TEXT = "No AI service is configured: the draft is built from the record";

/** What became of 'Improve wording', as a toast. */
function improvementToast(improvement: MinutesDraft["improvement"]) {
  if (!improvement) return { title: "Minutes drafted" };
  if (improvement.outcome === "kept") return { title: "Wording improved" };
  return { title: "Wording not changed", description: improvement.message ?? NO_AI_TEXT };
}

/** Minutes not yet approved, for those who keep the record: drafted, edited, circulated, then put to approval. */
export function KeptMinutes({
  meetingId,
  minutes,
  signer,
  onApproved,
}: {
  meetingId: number;
  minutes: Minutes;
  signer: Signer;
  onApproved?: () => unknown;
}) {
  const draft = useDraftMinutes(meetingId);
  const circulate = useCirculateMinutes(meetingId);
  const { preferences, isLoaded } = usePreferences();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  // Each (re)draft opens the editor afresh on its text (its own saves keep it, and the cursor, as they are).
  const [drafted, setDrafted] = useState<{ version: number; text: string | null } | null>(null);
  const [confirming, setConfirming] = useState<{ improve: boolean } | null>(null);
  const saveNow = useRef<SaveMinutesNow | null>(null);
  const busy = draft.isPending || circulate.isPending;

  async function runDraft(improve: boolean) {
    setConfirming(null);
    setRefusal(null);
    try {
      const answer = await draft.mutateAsync({ improve });
      setDrafted((current) => ({ version: (current?.version ?? 0) + 1, text: answer.text }));
      toast(improve ? improvementToast(answer.improvement) : { title: "Minutes drafted" });
    } catch (error) {
      setRefusal(refusalOf(error, "The minutes could not be drafted. Please try again."));
    }
  }

  async function onCirculate() {
    setRefusal(null);
    if (saveNow.current && !(await saveNow.current())) return;
    try {
      await circulate.mutateAsync();
      toast({ title: "Minutes circulated", description: "Each participant has been sent the minutes." });
    } catch (error) {
      setRefusal(refusalOf(error, "The minutes could not be circulated. Please try again."));
    }
  }

  // While a resolution to approve them is before the board, the server refuses every edit.
  const beforeTheBoard = minutes.status === "circulated" && minutes.resolutionId != null;
  // A draft being rebuilt from the record replaces the text: ask first once there is one.
  const askOrDraft = (improve: boolean) => (minutes.status === "draft" ? setConfirming({ improve }) : void runDraft(improve));

  return (
    <div className="grid gap-4">
      {minutes.status === "none" && (
        <p className="text-sm text-muted-foreground">No minutes yet. Draft them from the attendance, the agenda and the votes.</p>
      )}
      {minutes.status === "circulated" && !beforeTheBoard && (
        <p className="text-sm text-muted-foreground">
          Circulated{minutes.circulatedAt ? ` on ${formatLongDate(minutes.circulatedAt)}` : ""}: corrections can still be saved before
          approval.
        </p>
      )}
      {(minutes.status === "none" || minutes.status === "draft") && (
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <Button variant={minutes.status === "none" ? "default" : "outline"} onClick={() => askOrDraft(false)} disabled={busy}>
            {draft.isPending && !draft.variables?.improve ? <Loader2 className="animate-spin" aria-hidden /> : <FileText aria-hidden />}
            {minutes.status === "none" ? "Draft minutes" : "Redraft"}
          </Button>
          <Button variant="outline" onClick={() => askOrDraft(true)} disabled={busy}>
            {draft.isPending && draft.variables?.improve ? <Loader2 className="animate-spin" aria-hidden /> : <Sparkles aria-hidden />}
            Improve wording
          </Button>
        </div>
      )}
      {minutes.text != null && beforeTheBoard && <MinutesText text={minutes.text} />}
      {minutes.text != null && minutes.status !== "none" && !beforeTheBoard && (
        <MinutesEditor
          key={drafted?.version ?? 0}
          meetingId={meetingId}
          initialText={drafted?.text ?? minutes.text}
          autosave={isLoaded && preferences.autoSaveDrafts}
          saveNowRef={saveNow}
          saveLabel={minutes.status === "draft" ? "Save draft" : "Save changes"}
        />
      )}
      <RecordErrors refusal={refusal} />
      {minutes.status === "draft" && (
        <div>
          <Button onClick={() => void onCirculate()} disabled={busy} aria-busy={circulate.isPending}>
            {circulate.isPending ? <Loader2 className="animate-spin" aria-hidden /> : <Send aria-hidden />}
            Circulate to participants
          </Button>
        </div>
      )}
      {minutes.status === "circulated" &&
        (beforeTheBoard ? (
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <Gavel className="size-4" aria-hidden />
            Before the board for approval:
            <Link href={`/resolutions/${minutes.resolutionId}`} className="font-medium text-primary underline-offset-4 hover:underline">
              the resolution approving these minutes
            </Link>
          </p>
        ) : (
          <ApproveButton
            meetingId={meetingId}
            canPropose
            signer={signer}
            beforeApproving={() => (saveNow.current ? saveNow.current() : Promise.resolve(true))}
            onApproved={onApproved}
          />
        ))}
      <RedraftDialog
        improve={confirming?.improve ?? null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => void runDraft(confirming?.improve ?? false)}
      />
    </div>
  );
}
