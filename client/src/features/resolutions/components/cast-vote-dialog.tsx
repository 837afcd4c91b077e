import { useId, useState, type FormEvent } from "react";
import { voteChoices, type Resolution, type VoteChoice } from "@shared/resolutions";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { cn } from "@/lib/utils";
import { useCastVote } from "@/features/resolutions/api/cast-vote";
import { useDeclareConflict } from "@/features/resolutions/api/declare-conflict";
import { useResolution } from "@/features/resolutions/api/get-resolution";
import { useVoteCounts } from "@/features/resolutions/api/get-vote-counts";
import { useWithdrawConflict } from "@/features/resolutions/api/withdraw-conflict";
import { VoteCountsLine } from "@/features/resolutions/components/vote-counts-line";
import { VOTE_FAILED_TEXT } from "@/features/resolutions/lib/resolution-form";

const choiceLabels: Record<VoteChoice, string> = { yes: "Yes", no: "No", abstain: "Abstain" };

/** The Cast Your Vote dialog: the counts, refreshed every 5 s while it is shown; yes, no or abstain with a comment; a conflict of interest. */
export function CastVoteDialog({
  resolution,
  userId,
  onOpenChange,
}: {
  /** The resolution to vote on; null closes the dialog. */
  resolution: Resolution | null;
  userId: number | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={resolution !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Cast Your Vote</DialogTitle>
          <DialogDescription>{resolution?.title}</DialogDescription>
        </DialogHeader>
        {resolution && <CastVoteForm key={resolution.id} resolution={resolution} userId={userId} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function CastVoteForm({ resolution, userId, onDone }: { resolution: Resolution; userId: number | undefined; onDone: () => void }) {
  const counts = useVoteCounts(resolution.id);
  const details = useResolution(resolution.id);
  const castVote = useCastVote(resolution.id);
  const declare = useDeclareConflict(resolution.id);
  const withdraw = useWithdrawConflict(resolution.id);
  const [choice, setChoice] = useState<VoteChoice | null>(null);
  const [comment, setComment] = useState("");
  const [declaring, setDeclaring] = useState(false);
  const [reason, setReason] = useState("");
  const legendId = useId();
  const reasonId = useId();
  const commentId = useId();

  const userVote = counts.data?.userVote ?? null;
  const selected = choice ?? userVote;
  const recusal = details.data?.recusals.find((entry) => entry.userId === userId);
  const tally = counts.data ?? resolution.voteCounts;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!selected) return;
    try {
      await castVote.mutateAsync({ vote: selected, comment: comment.trim() || undefined });
      toast({ title: userVote ? "Vote changed" : "Vote recorded", description: `You voted ${choiceLabels[selected]}.` });
      onDone();
    } catch {
      toast({ title: "Error", description: VOTE_FAILED_TEXT, variant: "destructive" });
    }
  }

  async function onDeclare() {
    if (!reason.trim()) return;
    try {
      await declare.mutateAsync(reason.trim());
      toast({ title: "Conflict declared", description: "You will not vote on this resolution." });
      setDeclaring(false);
    } catch (error) {
      toast({
        title: "Error",
        description: serverMessageOf(error) ?? "Failed to declare the conflict. Please try again.",
        variant: "destructive",
      });
    }
  }

  async function onWithdraw() {
    try {
      await withdraw.mutateAsync();
      toast({ title: "Declaration withdrawn", description: "You may vote on this resolution again." });
    } catch (error) {
      toast({
        title: "Error",
        description: serverMessageOf(error) ?? "Failed to withdraw the declaration. Please try again.",
        variant: "destructive",
      });
    }
  }

  return (
    <div className="grid gap-5">
      <section aria-label="Current votes" className="rounded-md border bg-muted/40 p-3">
        <p className="mb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">Current votes</p>
        <div role="status" aria-live="polite">
          <VoteCountsLine counts={tally} />
        </div>
      </section>

      {recusal ? (
        <section className="grid gap-3 rounded-md border border-warning/50 p-3" aria-label="Conflict of interest">
          <p className="text-sm">
            You declared a conflict of interest: <span className="italic">{recusal.reason}</span>. You do not vote on this resolution.
          </p>
          <div>
            <Button type="button" variant="outline" onClick={onWithdraw} disabled={withdraw.isPending}>
              Withdraw declaration
            </Button>
          </div>
        </section>
      ) : (
        <form onSubmit={onSubmit} className="grid gap-4" aria-label="Your vote">
          <fieldset className="grid gap-2" aria-labelledby={legendId}>
            <legend id={legendId} className="mb-1 text-sm font-medium">
              Your vote
            </legend>
            <div className="grid grid-cols-3 gap-2">
              {voteChoices.map((option) => (
                <label
                  key={option}
                  className={cn(
                    "flex cursor-pointer items-center justify-center gap-2 rounded-md border px-3 py-2 text-sm font-medium has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50",
                    selected === option ? "border-primary bg-primary/10 text-primary" : "hover:bg-accent",
                  )}
                >
                  <input
                    type="radio"
                    name="vote"
                    value={option}
                    checked={selected === option}
                    onChange={() => setChoice(option)}
                    className="size-4 accent-primary"
                  />
                  {choiceLabels[option]}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-2">
            <Label htmlFor={commentId}>
              Comment <span className="font-normal text-muted-foreground">(optional)</span>
            </Label>
            <Textarea id={commentId} rows={3} value={comment} onChange={(event) => setComment(event.target.value)} maxLength={1000} />
          </div>
          <DialogFooter className="gap-2 sm:justify-between">
            <Button type="button" variant="ghost" onClick={() => setDeclaring((value) => !value)} aria-expanded={declaring}>
              Declare a conflict
            </Button>
            <Button type="submit" disabled={!selected || castVote.isPending}>
              {userVote ? "Change Vote" : "Vote Now"}
            </Button>
          </DialogFooter>
          {declaring && (
            <div className="grid gap-2 rounded-md border p-3">
              <Label htmlFor={reasonId}>Reason for the conflict of interest</Label>
              <Input
                id={reasonId}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={500}
                placeholder="I am a director of the supplier"
              />
              <p className="text-xs text-muted-foreground">Your vote, if any, is withdrawn and you leave the count of eligible voters.</p>
              <div>
                <Button type="button" variant="outline" onClick={onDeclare} disabled={!reason.trim() || declare.isPending}>
                  Confirm conflict
                </Button>
              </div>
            </div>
          )}
        </form>
      )}
    </div>
  );
}
