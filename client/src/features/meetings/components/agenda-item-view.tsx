import { Clock, FileText, Gavel, Hand, User } from "lucide-react";
import { Link } from "wouter";
import type { AgendaItem } from "@shared/agenda";
import type { CompanyMember } from "@shared/companies";
import type { LibraryDocument } from "@shared/documents";
import { agendaPurposeLabels } from "@shared/meeting-model";
import { resolutionTab } from "@shared/resolution-model";
import { PaperFacts } from "@/components/paper-facts";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { formatTime } from "@/lib/format";
import { formatMinutes, memberName, PAPER_HIDDEN, PAPER_NOT_LOADED, type AgendaResolution } from "@/features/meetings/lib/meeting-sources";

export interface AgendaLookups {
  members: Map<number, CompanyMember>;
  papers: Map<number, LibraryDocument>;
  resolutions: Map<number, AgendaResolution>;
  /** True while a list is still loading: its names are not known yet. */
  loadingNames: boolean;
  /** True when the library failed to load: a paper it would name is unknown, not necessarily hidden from the viewer. */
  papersFailed: boolean;
  onOpenPaper: (paper: LibraryDocument) => void;
  /** A show of hands, for those who keep the meeting's record once it started and while its minutes are not approved. */
  showOfHands?: ShowOfHands;
  /** The viewer's pages opened of each paper, by id, once known. */
  reading?: Map<number, { pages: number | null; pagesRead: number }>;
}

export interface ShowOfHands {
  /** Offered only on a resolution still pending and before its deadline (the server refuses one after it). */
  now: Date;
  onOpen: (resolution: AgendaResolution) => void;
}

/** One agenda item: its number and start time, length, presenter, description, papers and resolutions. */
export function AgendaItemView({ item, number, lookups }: { item: AgendaItem; number: number; lookups: AgendaLookups }) {
  const headingId = `agenda-item-${item.id}`;
  return (
    <li className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 py-4 first:pt-0 last:pb-0">
      <span
        className="mt-0.5 flex size-7 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary"
        aria-hidden
      >
        {number}
      </span>
      <div className="grid min-w-0 gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <h3 id={headingId} className="font-medium break-words">
            <span className="sr-only">{number}. </span>
            {item.title}
          </h3>
          <Badge variant="outline" className="font-normal">
            {agendaPurposeLabels[item.purpose]}
          </Badge>
        </div>
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground [&_svg]:size-4 [&_svg]:shrink-0">
          <span className="inline-flex items-center gap-1.5">
            <Clock aria-hidden />
            <time dateTime={item.startsAt}>{formatTime(item.startsAt)}</time>
            <span aria-hidden>·</span>
            <span>{formatMinutes(item.durationMinutes)}</span>
          </span>
          {item.presenterId !== null && (
            <span className="inline-flex min-w-0 items-center gap-1.5">
              <User aria-hidden />
              <span className="sr-only">Presenter: </span>
              <span className="break-words">{lookups.loadingNames ? "…" : memberName(lookups.members, item.presenterId)}</span>
            </span>
          )}
        </p>
        {item.description && <p className="text-sm break-words whitespace-pre-wrap">{item.description}</p>}
        {item.documentIds.length > 0 && <AgendaPapers ids={item.documentIds} lookups={lookups} />}
        {item.resolutionIds.length > 0 && <AgendaResolutions ids={item.resolutionIds} lookups={lookups} />}
      </div>
    </li>
  );
}

function AgendaPapers({ ids, lookups }: { ids: number[]; lookups: AgendaLookups }) {
  return (
    <div className="grid gap-1">
      <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Papers</p>
      <ul className="grid gap-2">
        {ids.map((id) => {
          const paper = lookups.papers.get(id);
          const read = lookups.reading?.get(id);
          return (
            <li key={id} className="grid max-w-full min-w-0 justify-items-start gap-1">
              {paper ? (
                <>
                  <Button
                    variant="outline"
                    size="sm"
                    className="h-auto max-w-full min-h-8 justify-start py-1 text-left whitespace-normal"
                    onClick={() => lookups.onOpenPaper(paper)}
                    aria-label={`Open paper ${paper.name}`}
                  >
                    <FileText aria-hidden />
                    <span className="min-w-0 break-all">{paper.name}</span>
                  </Button>
                  <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                    <PaperFacts paper={paper} />
                    {read?.pages != null && (
                      <span>
                        {Math.min(read.pagesRead, read.pages)}/{read.pages} pages<span className="sr-only"> opened</span>
                      </span>
                    )}
                  </span>
                </>
              ) : (
                <span className="inline-flex items-center gap-1.5 text-sm text-muted-foreground [&_svg]:size-4">
                  <FileText aria-hidden />
                  {lookups.loadingNames ? "Loading…" : lookups.papersFailed ? PAPER_NOT_LOADED : PAPER_HIDDEN}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function AgendaResolutions({ ids, lookups }: { ids: number[]; lookups: AgendaLookups }) {
  return (
    <div className="grid gap-1">
      <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Resolutions</p>
      <ul className="grid gap-1">
        {ids.map((id) => {
          const resolution = lookups.resolutions.get(id);
          return (
            <li key={id} className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <Link
                href={`/resolutions/${id}`}
                className="inline-flex max-w-full items-center gap-1.5 rounded-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 [&_svg]:size-4 [&_svg]:shrink-0"
              >
                <Gavel aria-hidden />
                <span className="min-w-0 break-words">
                  {resolution?.title ?? (lookups.loadingNames ? "Loading…" : `Resolution #${id}`)}
                </span>
              </Link>
              {resolution && lookups.showOfHands && resolutionTab(resolution, lookups.showOfHands.now) === "pending" && (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => lookups.showOfHands?.onOpen(resolution)}
                  aria-label={`Record show of hands on ${resolution.title}`}
                >
                  <Hand aria-hidden />
                  Record show of hands
                </Button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
