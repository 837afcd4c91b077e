import { Loader2 } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { attendingStatuses } from "@shared/meeting-record";
import { votingRoles } from "@shared/permissions";
import type { Resolution, ResolutionDetails, VoteChoice } from "@shared/resolutions";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { toast } from "@/components/ui/use-toast";
import { useAttendance } from "@/features/meeting-record/api/attendance";
import { useRecordMeetingVote } from "@/features/meeting-record/api/meeting-vote";
import { useResolutionDetails } from "@/features/meeting-record/api/resolution-recusals";
import { RecordErrors, SectionLoading, SectionLoadError } from "@/features/meeting-record/components/record-section";
import { refusalOf, type Refusal } from "@/features/meeting-record/lib/refusal";

type HandChoice = VoteChoice | "none";

/** The resolution a show of hands decides, as the agenda names it. */
type MovedResolution = Pick<Resolution, "id" | "title">;

const choices: { value: HandChoice; label: string }[] = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
  { value: "abstain", label: "Abstain" },
  { value: "none", label: "Not voting" },
];

/** Observers never vote, nor anyone no longer a member (no role). */
const isVotingRole = (role: string | null) => role != null && (votingRoles as readonly string[]).includes(role);

/** "Approved: 3 yes, 1 no, 0 abstain" from the decided resolution. */
export function outcomeText(resolution: Pick<ResolutionDetails, "status" | "voteCounts">): string {
  const { yes, no, abstain } = resolution.voteCounts;
  const status = resolution.status === "approved" ? "Approved" : resolution.status === "rejected" ? "Rejected" : "Still pending";
  return `${status}: ${yes} yes, ${no} no, ${abstain} abstain`;
}

export interface ShowOfHandsDialogProps {
  meetingId: number;
  /** The resolution moved at the meeting, or null when the dialog is closed. */
  resolution: MovedResolution | null;
  onClose: () => void;
  /** After the resolution is decided: the page refreshes what shows it (the agenda, the resolutions). */
  onDecided?: (resolution: ResolutionDetails) => unknown;
}

/** 'Record show of hands': how each voting member at the meeting voted on a resolution; it is decided at once. */
export function ShowOfHandsDialog({ meetingId, resolution, onClose, onDecided }: ShowOfHandsDialogProps) {
  return (
    <Dialog open={resolution != null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Record show of hands</DialogTitle>
          <DialogDescription className="break-words">
            {resolution ? `How each voting member at the meeting voted on “${resolution.title}”.` : ""} Online votes of members marked not
            voting stand.
          </DialogDescription>
        </DialogHeader>
        {resolution && <HandsForm meetingId={meetingId} resolution={resolution} onDone={onClose} onDecided={onDecided} />}
      </DialogContent>
    </Dialog>
  );
}

function HandsForm({
  meetingId,
  resolution,
  onDone,
  onDecided,
}: {
  meetingId: number;
  resolution: MovedResolution;
  onDone: () => void;
  onDecided?: (resolution: ResolutionDetails) => unknown;
}) {
  const attendance = useAttendance(meetingId);
  const details = useResolutionDetails(resolution.id);
  const record = useRecordMeetingVote(resolution.id, onDecided);
  const [votes, setVotes] = useState<Map<number, HandChoice>>(new Map());
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const groupPrefix = useId();

  if (attendance.isPending || details.isPending) return <SectionLoading label="Loading who attended" />;
  if (attendance.isError) return <SectionLoadError what="Who attended" onRetry={() => void attendance.refetch()} />;
  if (details.isError) return <SectionLoadError what="Who declared a conflict" onRetry={() => void details.refetch()} />;

  const voters = attendance.data.attendees.filter((attendee) => attendingStatuses.includes(attendee.status) && isVotingRole(attendee.role));
  // The server refuses a vote from anyone who declared a conflict: they are shown, but take no part.
  const recused = new Set(details.data.recusals.map((recusal) => recusal.userId));

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const cast = voters.flatMap((voter) => {
      const vote = recused.has(voter.userId) ? "none" : (votes.get(voter.userId) ?? "none");
      return vote === "none" ? [] : [{ userId: voter.userId, vote }];
    });
    if (cast.length === 0) {
      setRefusal({ message: "Record at least one vote", fields: [] });
      return;
    }
    setRefusal(null);
    try {
      const decided = await record.mutateAsync({ meetingId, votes: cast });
      toast({ title: "Show of hands recorded", description: `${resolution.title}: ${outcomeText(decided)}` });
      onDone();
    } catch (error) {
      setRefusal(refusalOf(error, "The votes could not be recorded. Please try again."));
    }
  }

  if (voters.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        No voting member is recorded present. Record the attendance first: only those present or present by video vote here.
      </p>
    );
  }

  return (
    <form className="grid gap-4" onSubmit={(event) => void onSubmit(event)} aria-label="Show of hands">
      <div className="grid divide-y">
        {voters.map((voter) => {
          const nameId = `${groupPrefix}-${voter.userId}`;
          const conflicted = recused.has(voter.userId);
          const value = conflicted ? "none" : (votes.get(voter.userId) ?? "none");
          return (
            <div key={voter.userId} className="grid gap-2 py-3 first:pt-0 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)] sm:items-center">
              <div className="min-w-0">
                <p id={nameId} className="text-sm font-medium break-words">
                  {voter.name}
                </p>
                {conflicted && (
                  <p id={`${nameId}-conflict`} className="text-xs text-muted-foreground">
                    Declared a conflict
                  </p>
                )}
              </div>
              <div
                role="radiogroup"
                aria-labelledby={nameId}
                aria-describedby={conflicted ? `${nameId}-conflict` : undefined}
                aria-disabled={conflicted || undefined}
                className="flex flex-wrap gap-x-4 gap-y-2 aria-disabled:opacity-50"
              >
                {choices.map((choice) => (
                  <label
                    key={choice.value}
                    className={`inline-flex min-h-8 items-center gap-2 text-sm ${conflicted ? "cursor-not-allowed" : "cursor-pointer"}`}
                  >
                    <input
                      type="radio"
                      name={nameId}
                      value={choice.value}
                      checked={value === choice.value}
                      disabled={conflicted}
                      onChange={() => setVotes((current) => new Map(current).set(voter.userId, choice.value))}
                      className="size-4 accent-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                    />
                    {choice.label}
                  </label>
                ))}
              </div>
            </div>
          );
        })}
      </div>
      <RecordErrors refusal={refusal} />
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={record.isPending} aria-busy={record.isPending}>
          {record.isPending && <Loader2 className="animate-spin" aria-hidden />}
          Record votes
        </Button>
      </DialogFooter>
    </form>
  );
}
