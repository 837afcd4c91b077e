import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import * as api from "@shared/api/resolutions";
import { resolutionTab, type ResolutionDetails } from "@shared/resolutions";
import { signDecisionLabels, signDecisions, writtenRuleWords, type SignDecision, type WrittenState } from "@shared/written-resolutions";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/use-toast";
import { apiUrl, serverMessageOf } from "@/lib/api-client";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { formatLongDate, formatTime } from "@/lib/format";
import { useNudgeSigner, useWithdrawSignature } from "@/features/resolutions/api/written-signatures";
import { AttachedDocuments } from "@/features/resolutions/components/attached-documents";
import { ProcedureBadge, ResolutionStatusBadge } from "@/features/resolutions/components/resolution-status-badge";
import { SignWrittenForm } from "@/features/resolutions/components/sign-written-form";
import { Markdown } from "@/features/resolutions/lib/markdown";
import { certificateLibraryHref, writtenStatusLabel } from "@/features/resolutions/lib/resolution-form";

const methodLabels = { passkey: "with a passkey", password: "with the password", "password+totp": "with the password and a code" } as const;
const when = (value: string) => `${formatLongDate(value)} at ${formatTime(value)}`;

/** A written resolution opened: its exact text and hash, papers, rule, who has signed, the signing itself, and the outcome. */
export default function WrittenResolutionView({ details, now }: { details: ResolutionDetails; now: Date }) {
  const written = details.written;
  const lapsesAt = details.lapsesAt ?? details.deadline;
  // Opened while open for signatures: once decided here (the caller's signature, or another's seen live), the
  // signing form is gone, and the outcome takes the focus.
  const openedPending = useRef(details.status === "pending");
  return (
    <div className="grid gap-5 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <ResolutionStatusBadge resolution={details} tab={resolutionTab(details, now)} />
        <ProcedureBadge procedure="written" />
        {details.status === "pending" && <span className="text-muted-foreground">Lapses {when(lapsesAt)}</span>}
      </div>
      <WrittenText text={details.description} sha256={details.textSha256} />
      <AttachedDocuments heading="Papers" documents={details.documents} />
      {written && (
        <p>
          <span className="font-medium">Rule: </span>
          {writtenRuleWords(written.rule)}.
        </p>
      )}
      {details.status === "pending" ? (
        written && <SigningState details={details} written={written} />
      ) : (
        <WrittenOutcome details={details} takeFocus={openedPending.current} />
      )}
    </div>
  );
}

/** The exact text, rendered from its Markdown and as written, with the SHA-256 of its UTF-8 bytes beside it. */
function WrittenText({ text, sha256 }: { text: string; sha256: string | null }) {
  return (
    <section aria-labelledby="written-text-heading" className="grid gap-2">
      <h3 id="written-text-heading" className="font-medium">
        The text
      </h3>
      <Tabs defaultValue="rendered" className="grid gap-2">
        <TabsList aria-label="How the text is shown">
          <TabsTrigger value="rendered">Rendered</TabsTrigger>
          <TabsTrigger value="source">As written</TabsTrigger>
        </TabsList>
        <TabsContent value="rendered" className="rounded-md border p-3">
          <Markdown source={text} />
        </TabsContent>
        <TabsContent value="source">
          <pre className="max-h-80 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs break-words whitespace-pre-wrap">
            {text}
          </pre>
        </TabsContent>
      </Tabs>
      {sha256 && (
        <p className="grid gap-0.5">
          <span className="text-muted-foreground">SHA-256 of the text</span>
          <code className="font-mono text-xs break-all" aria-label="SHA-256 of the text">
            {sha256}
          </code>
        </p>
      )}
    </section>
  );
}

/** While open: who has signed and who has not (never how), the caller's own signature, and the decisions to sign. */
function SigningState({ details, written }: { details: ResolutionDetails; written: WrittenState }) {
  const [deciding, setDeciding] = useState<SignDecision | null>(null);
  const mineHeadingRef = useRef<HTMLHeadingElement>(null);
  const withdraw = useWithdrawSignature(details.id);
  const decisions = signDecisions.filter((decision) => decision !== "meeting" || written.rule.kind === "majority");

  async function onWithdraw() {
    try {
      await withdraw.mutateAsync();
      toast({ title: "Signature withdrawn", description: "You may sign again while the resolution is open." });
    } catch (error) {
      toast({ title: "Error", description: serverMessageOf(error) ?? "The signature could not be withdrawn.", variant: "destructive" });
    }
  }

  return (
    <>
      <section aria-labelledby="written-signers-heading" className="grid gap-3">
        <h3 id="written-signers-heading" className="font-medium">
          Signatures
        </h3>
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid content-start gap-1">
            <h4 className="text-muted-foreground">Signed ({written.signed.length})</h4>
            {written.signed.length === 0 ? (
              <p className="text-muted-foreground">Nobody has signed yet.</p>
            ) : (
              <ul className="grid gap-1" aria-label="Signed">
                {written.signed.map((signer) => (
                  <li key={signer.userId}>
                    {signer.name} <span className="text-muted-foreground">· {when(signer.signedAt)}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <AwaitingList resolutionId={details.id} written={written} />
        </div>
        {details.recusals.length > 0 && (
          <p className="text-muted-foreground">Declared a conflict: {details.recusals.map((recusal) => recusal.name).join(", ")}</p>
        )}
      </section>
      {(written.mine || written.maySign) && (
        <section aria-labelledby="written-mine-heading" className="grid gap-3 rounded-md border bg-muted/30 p-3">
          <h3 id="written-mine-heading" ref={mineHeadingRef} tabIndex={-1} className="font-medium outline-none">
            Your signature
          </h3>
          {written.mine && (
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p>
                You signed “{signDecisionLabels[written.mine.decision]}” {methodLabels[written.mine.method]} on{" "}
                {when(written.mine.signedAt)}.
              </p>
              {written.mayWithdraw && (
                <Button type="button" variant="outline" size="sm" onClick={onWithdraw} disabled={withdraw.isPending}>
                  Withdraw my signature
                </Button>
              )}
            </div>
          )}
          {written.maySign &&
            (deciding ? (
              <SignWrittenForm
                resolutionId={details.id}
                decision={deciding}
                textSha256={details.textSha256}
                onDone={() => {
                  // The form is gone: the focus goes to the signature it recorded, not to the dialog's start.
                  setDeciding(null);
                  mineHeadingRef.current?.focus();
                }}
                onCancel={() => setDeciding(null)}
              />
            ) : (
              <div className="flex flex-wrap gap-2" role="group" aria-label="Your decision">
                {decisions.map((decision) => (
                  <Button
                    key={decision}
                    type="button"
                    variant={decision === "agree" ? "default" : "outline"}
                    onClick={() => setDeciding(decision)}
                  >
                    {signDecisionLabels[decision]}
                  </Button>
                ))}
              </div>
            ))}
        </section>
      )}
    </>
  );
}

/** Who has not signed yet; the proposer, founders and admins may nudge each (once a day), except themselves. */
function AwaitingList({ resolutionId, written }: { resolutionId: number; written: WrittenState }) {
  const nudge = useNudgeSigner(resolutionId);
  const { user } = useCurrentUser();
  const [nudged, setNudged] = useState<number[]>([]);

  async function onNudge(userId: number, name: string) {
    try {
      await nudge.mutateAsync(userId);
      setNudged((list) => [...list, userId]);
      toast({ title: "Reminder sent", description: `${name} has been reminded to sign.` });
    } catch (error) {
      toast({ title: "Not sent", description: serverMessageOf(error) ?? `${name} could not be reminded.`, variant: "destructive" });
    }
  }

  return (
    <div className="grid content-start gap-1">
      <h4 className="text-muted-foreground">Not yet signed ({written.awaiting.length})</h4>
      {written.awaiting.length === 0 ? (
        <p className="text-muted-foreground">Everyone eligible has signed.</p>
      ) : (
        <ul className="grid gap-1" aria-label="Not yet signed">
          {written.awaiting.map((person) => (
            <li key={person.userId} className="flex min-h-8 flex-wrap items-center justify-between gap-2">
              <span>{person.name}</span>
              {written.mayNudge && person.userId !== user?.id && (
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  aria-label={`Nudge ${person.name}`}
                  onClick={() => void onNudge(person.userId, person.name)}
                  disabled={nudge.isPending || nudged.includes(person.userId)}
                >
                  {nudged.includes(person.userId) ? "Nudged" : "Nudge"}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Once decided: the outcome and why, its effective time, and the certificate as JSON and as the library's PDF. */
function WrittenOutcome({ details, takeFocus }: { details: ResolutionDetails; takeFocus: boolean }) {
  const certificate = details.writtenCertificate;
  const explanation = certificate?.explanation ?? details.explanation;
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) headingRef.current?.focus();
  }, [takeFocus]);
  return (
    <section aria-labelledby="written-outcome-heading" className="grid gap-3 rounded-md border p-4">
      <h3 id="written-outcome-heading" ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none">
        {writtenStatusLabel(details.status, explanation)}
      </h3>
      {explanation && <p className="font-medium">{explanation}</p>}
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[max-content_1fr]">
        {certificate?.effectiveAt && (
          <>
            <dt className="text-muted-foreground">Effective</dt>
            <dd>{when(certificate.effectiveAt)}</dd>
          </>
        )}
        {(certificate?.decidedAt ?? details.decidedAt) && (
          <>
            <dt className="text-muted-foreground">Decided</dt>
            <dd>{when((certificate?.decidedAt ?? details.decidedAt)!)}</dd>
          </>
        )}
        {certificate && (
          <>
            <dt className="text-muted-foreground">Signatures</dt>
            <dd>
              {certificate.signatures.length === 0
                ? "None"
                : certificate.signatures
                    .map((signature) => `${signature.name}: ${signDecisionLabels[signature.decision]} (${methodLabels[signature.method]})`)
                    .join("; ")}
            </dd>
          </>
        )}
      </dl>
      {certificate && (
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <a href={apiUrl(api.writtenCertificate, { params: { id: details.id } })} download={`resolution-${details.id}-certificate.json`}>
              Certificate (JSON)
            </a>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link href={certificateLibraryHref}>Certificate PDF in the library</Link>
          </Button>
        </div>
      )}
    </section>
  );
}
