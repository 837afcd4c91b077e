import { FileDown, FileText, Gavel, Loader2, Send, Sparkles, Stamp } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "wouter";
import * as documentsApi from "@shared/api/documents";
import type { Minutes, MinutesDraft, MinutesStatus } from "@shared/meeting-record";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { apiUrl } from "@/lib/api-client";
import { formatLongDate } from "@/lib/format";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { usePreferences } from "@/lib/preferences/get-preferences";
import { useAttendance } from "@/features/meeting-record/api/attendance";
import { useCirculateMinutes, useDraftMinutes, useMinutes } from "@/features/meeting-record/api/minutes";
import { ApproveMinutesDialog, RedraftDialog, type Signer } from "@/features/meeting-record/components/minutes-dialogs";
import { MinutesEditor, type SaveMinutesNow } from "@/features/meeting-record/components/minutes-editor";
import { RecordErrors, RecordSection, SectionLoading, SectionLoadError } from "@/features/meeting-record/components/record-section";
import { refusalOf, type Refusal } from "@/features/meeting-record/lib/refusal";

export const MINUTES_SECTION_ID = "meeting-minutes";
export const NO_AI_TEXT = "No AI service is configured: the draft is built from the record";

const badges: Record<MinutesStatus, { label: string; variant: "secondary" | "warning" | "default" | "success" }> = {
  none: { label: "Not drafted", variant: "secondary" },
  draft: { label: "Draft", variant: "warning" },
  circulated: { label: "Circulated", variant: "default" },
  approved: { label: "Approved", variant: "success" },
};

/** What became of 'Improve wording', as a toast. */
function improvementToast(improvement: MinutesDraft["improvement"]) {
  if (!improvement) return { title: "Minutes drafted" };
  if (improvement.outcome === "kept") return { title: "Wording improved" };
  return { title: "Wording not changed", description: improvement.message ?? NO_AI_TEXT };
}

export interface MeetingMinutesProps {
  meetingId: number;
  /** Minutes are drafted from the meeting's start. */
  started: boolean;
  /** A founder, an admin or the meeting's creator, while the meeting is not cancelled. */
  canKeep: boolean;
  /** After the minutes are approved: the page refreshes the resolutions and the library. */
  onApproved?: () => unknown;
}

/** The Minutes card: drafted from the record, edited, circulated and approved by those who keep it; read by the rest. */
export function MeetingMinutes({ meetingId, started, canKeep, onApproved }: MeetingMinutesProps) {
  const minutes = useMinutes(meetingId, started);
  const signer = useSigner(meetingId, started);
  const badge = minutes.data ? badges[minutes.data.status] : null;
  const awaitingApproval = minutes.data?.status === "circulated" && minutes.data.resolutionId == null;

  let body;
  if (!started) {
    body = <p className="text-sm text-muted-foreground">Minutes can be drafted once the meeting starts.</p>;
  } else if (minutes.isPending) {
    body = <SectionLoading label="Loading minutes" />;
  } else if (minutes.isError) {
    body = <SectionLoadError what="The minutes" onRetry={() => void minutes.refetch()} />;
  } else if (minutes.data.status === "approved") {
    body = <ApprovedMinutes minutes={minutes.data} />;
  } else if (canKeep) {
    body = <KeptMinutes meetingId={meetingId} minutes={minutes.data} signer={signer} onApproved={onApproved} />;
  } else if (minutes.data.status === "circulated" && minutes.data.text != null) {
    body = (
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">
          Circulated{minutes.data.circulatedAt ? ` on ${formatLongDate(minutes.data.circulatedAt)}` : ""} for approval.
        </p>
        <MinutesText text={minutes.data.text} />
        {/* The recorded chair signs them, whatever their role. */}
        {awaitingApproval && signer.isChair && (
          <ApproveButton meetingId={meetingId} canPropose={false} signer={signer} onApproved={onApproved} />
        )}
      </div>
    );
  } else {
    body = (
      <p className="text-sm text-muted-foreground">
        {minutes.data.status === "draft" ? "The minutes are being drafted." : "The minutes have not been drafted yet."}
      </p>
    );
  }

  return (
    <RecordSection id={MINUTES_SECTION_ID} title="Minutes" aside={badge && <Badge variant={badge.variant}>{badge.label}</Badge>}>
      {body}
    </RecordSection>
  );
}

/** Who may sign the minutes as chair: the chair recorded in the attendance, or, when none is, whoever keeps the record. */
function useSigner(meetingId: number, started: boolean): Signer {
  const { user } = useCurrentUser();
  const attendance = useAttendance(meetingId, started);
  const chairId = attendance.data?.chairId ?? null;
  const chair = attendance.data?.attendees.find((attendee) => attendee.userId === chairId);
  return {
    chairName: chair?.name ?? null,
    isChair: chairId !== null && chairId === user?.id,
    noChair: attendance.isSuccess && chairId === null,
  };
}

/** 'Approve…' and its dialog. */
function ApproveButton({
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

function MinutesText({ text }: { text: string }) {
  return (
    <div
      className="max-h-[32rem] overflow-y-auto rounded-md border bg-muted/30 p-4 font-mono text-sm leading-relaxed break-words whitespace-pre-wrap"
      tabIndex={0}
      role="document"
      aria-label="Minutes text"
    >
      {text}
    </div>
  );
}

function ApprovedMinutes({ minutes }: { minutes: Minutes }) {
  const how =
    minutes.approvedVia === "chair"
      ? `signed by ${minutes.approvedBy?.name ?? "the chair"} as chair`
      : minutes.approvedVia === "resolution"
        ? "by resolution of the board"
        : "";
  return (
    <div className="grid gap-4">
      <p className="text-sm font-medium">
        Approved{minutes.approvedAt ? ` on ${formatLongDate(minutes.approvedAt)}` : ""}
        {how ? `, ${how}` : ""}.
      </p>
      {minutes.text != null && <MinutesText text={minutes.text} />}
      {minutes.sha256 && (
        <dl className="grid gap-1 text-sm">
          <dt className="text-muted-foreground">SHA-256 of the approved text</dt>
          <dd className="font-mono text-xs break-all">{minutes.sha256}</dd>
        </dl>
      )}
      {minutes.documentId != null && (
        <div>
          <Button asChild variant="outline">
            <a href={apiUrl(documentsApi.downloadDocument, { params: { id: minutes.documentId }, query: {} })} download>
              <FileDown aria-hidden />
              Download minutes (PDF)
            </a>
          </Button>
        </div>
      )}
    </div>
  );
}

function KeptMinutes({
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
