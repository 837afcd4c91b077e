import { Printer } from "lucide-react";
import { lazy, Suspense } from "react";
import { resolutionTab, type Certificate, type ResolutionDetails } from "@shared/resolutions";
import { roleLabel } from "@shared/roles";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/api-client";
import { formatLongDate, formatTime } from "@/lib/format";
import { useResolution } from "@/features/resolutions/api/get-resolution";
import { AttachedDocuments } from "@/features/resolutions/components/attached-documents";
import { ResolutionStatusBadge } from "@/features/resolutions/components/resolution-status-badge";
import { VoteCountsLine } from "@/features/resolutions/components/vote-counts-line";

const voteLabels = { yes: "Yes", no: "No", abstain: "Abstain" } as const;

// A written resolution's view (its text rendered, the signing and the outcome) loads when one is first opened.
const WrittenResolutionView = lazy(() => import("@/features/resolutions/components/written-resolution-view"));

const loading = (
  <div className="grid gap-3" role="status" aria-label="Loading the resolution">
    <Skeleton className="h-6 w-1/2" />
    <Skeleton className="h-24 w-full" />
  </div>
);

function subtitle(details: ResolutionDetails): string {
  if (details.procedure === "written") {
    return details.status === "pending"
      ? `Written resolution · lapses ${formatLongDate(details.lapsesAt ?? details.deadline)}`
      : "Written resolution";
  }
  return `${details.type} resolution · deadline ${formatLongDate(details.deadline)}`;
}

/**
 * One resolution: its text, documents and who has voted; once decided, its tally certificate, which prints on its own.
 * A written resolution shows its own view: the exact text and its hash, who has signed, the signing, the outcome.
 */
export function ResolutionDetailsDialog({
  id,
  now,
  onOpenChange,
}: {
  id: number | null;
  now: Date;
  onOpenChange: (open: boolean) => void;
}) {
  const details = useResolution(id);
  return (
    <Dialog open={id !== null} onOpenChange={onOpenChange}>
      <DialogContent data-print-sheet className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{details.data?.title ?? "Resolution"}</DialogTitle>
          <DialogDescription>{details.data ? subtitle(details.data) : "Loading the resolution"}</DialogDescription>
        </DialogHeader>
        {details.isPending ? (
          loading
        ) : details.isError ? (
          <p className="text-sm text-destructive">
            {details.error instanceof ApiError && details.error.status === 404
              ? "Resolution not found."
              : "The resolution could not be loaded."}
          </p>
        ) : details.data.procedure === "written" ? (
          <Suspense fallback={loading}>
            <WrittenResolutionView details={details.data} now={now} />
          </Suspense>
        ) : (
          <DetailsBody details={details.data} now={now} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function DetailsBody({ details, now }: { details: ResolutionDetails; now: Date }) {
  return (
    <div className="grid gap-5 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <ResolutionStatusBadge resolution={details} tab={resolutionTab(details, now)} />
        <VoteCountsLine counts={details.voteCounts} />
      </div>
      <p className="whitespace-pre-wrap">{details.description}</p>
      <AttachedDocuments heading="Documents" documents={details.documents} />
      {details.certificate ? (
        <CertificateView certificate={details.certificate} />
      ) : (
        <section aria-labelledby="resolution-voters-heading" className="grid gap-1">
          <h3 id="resolution-voters-heading" className="font-medium">
            Voted so far
          </h3>
          {details.voters.length === 0 ? (
            <p className="text-muted-foreground">Nobody has voted yet.</p>
          ) : (
            <p>{details.voters.map((voter) => voter.name).join(", ")}</p>
          )}
          {details.recusals.length > 0 && (
            <p className="text-muted-foreground">Declared a conflict: {details.recusals.map((recusal) => recusal.name).join(", ")}</p>
          )}
        </section>
      )}
    </div>
  );
}

/** The tally certificate, frozen at the decision. */
export function CertificateView({ certificate }: { certificate: Certificate }) {
  return (
    <section aria-labelledby="certificate-heading" className="grid gap-3 rounded-md border p-4 print:border-0 print:p-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="certificate-heading" className="text-base font-semibold">
          Tally certificate
        </h3>
        <Button type="button" variant="outline" size="sm" onClick={() => window.print()} data-print-hidden>
          <Printer aria-hidden />
          Print certificate
        </Button>
      </div>
      <p className="font-medium">{certificate.explanation}</p>
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="text-muted-foreground">Decided</dt>
        <dd>
          {formatLongDate(certificate.decidedAt)} at {formatTime(certificate.decidedAt)}
        </dd>
        <dt className="text-muted-foreground">Outcome</dt>
        <dd>{certificate.outcome === "approved" ? "Approved" : "Rejected"}</dd>
        <dt className="text-muted-foreground">Rule</dt>
        <dd>{certificate.rule}</dd>
        <dt className="text-muted-foreground">Quorum</dt>
        <dd>
          {certificate.quorum.required} votes ({certificate.quorum.rule}); {certificate.quorum.present} cast,{" "}
          {certificate.quorum.met ? "met" : "not met"}
        </dd>
        <dt className="text-muted-foreground">Eligible</dt>
        <dd>{certificate.eligible.map((person) => `${person.name} (${roleLabel(person.role)})`).join(", ") || "None"}</dd>
        {certificate.recused.length > 0 && (
          <>
            <dt className="text-muted-foreground">Recused</dt>
            <dd>{certificate.recused.map((person) => `${person.name}: ${person.reason}`).join("; ")}</dd>
          </>
        )}
      </dl>
      {/* Scrolls sideways on a narrow screen: focusable, so a keyboard can scroll it too. */}
      <div
        className="overflow-x-auto rounded-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        tabIndex={0}
        role="group"
        aria-label="Votes counted"
      >
        <table className="w-full text-left">
          <caption className="sr-only">Votes counted</caption>
          <thead className="text-muted-foreground">
            <tr>
              {["Voter", "Vote", "Comment", "Cast"].map((heading) => (
                <th key={heading} scope="col" className="py-1 pr-3 font-medium">
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {certificate.votes.map((vote) => (
              <tr key={vote.userId} className="border-t">
                <td className="py-1 pr-3">{vote.name}</td>
                <td className="py-1 pr-3">{voteLabels[vote.vote]}</td>
                <td className="py-1 pr-3">{vote.comment ?? ""}</td>
                <td className="py-1 whitespace-nowrap">{formatLongDate(vote.castAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
