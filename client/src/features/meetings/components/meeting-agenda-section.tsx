import { ListPlus, Pencil } from "lucide-react";
import { lazy, Suspense, useMemo, useState, type ReactNode } from "react";
import type { AgendaItem } from "@shared/agenda";
import { LoadError } from "@/components/load-error";
import { LoadingSpinner } from "@/components/loading-spinner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useAgenda } from "@/features/meetings/api/get-agenda";
import { useMeetingReading } from "@/features/meetings/api/reading";
import { AgendaItemView, type AgendaLookups, type ShowOfHands } from "@/features/meetings/components/agenda-item-view";
import { byId, formatMinutes, PAPER_NOT_LOADED, type MeetingSources } from "@/features/meetings/lib/meeting-sources";

// The editor (and the validation library it brings) loads when someone starts editing.
const AgendaEditor = lazy(async () => ({ default: (await import("@/features/meetings/components/agenda-editor")).AgendaEditor }));

export const AGENDA_SECTION_ID = "meeting-agenda";

/** The lookups the agenda's names come from, built once per change of the lists. */
export function useAgendaLookups(sources: MeetingSources): AgendaLookups {
  const { members, library, resolutions, onOpenPaper } = sources;
  return useMemo(
    () => ({
      members: byId(members.data),
      papers: byId(library.data),
      resolutions: byId(resolutions.data),
      loadingNames: members.isPending || library.isPending || resolutions.isPending,
      papersFailed: library.isError,
      onOpenPaper,
    }),
    [
      members.data,
      library.data,
      resolutions.data,
      members.isPending,
      library.isPending,
      resolutions.isPending,
      library.isError,
      onOpenPaper,
    ],
  );
}

/** The Agenda card of a meeting's page: the items, or for those who may, the editor in their place. */
export function MeetingAgendaSection({
  meetingId,
  canEdit,
  sources,
  showOfHands,
}: {
  meetingId: number;
  /** Founders, admins and the meeting's creator (a cancelled meeting's agenda is not edited). */
  canEdit: boolean;
  sources: MeetingSources;
  /** Offered on each open resolution to those who keep the record, once the meeting has started. */
  showOfHands?: ShowOfHands;
}) {
  const agenda = useAgenda(meetingId);
  const names = useAgendaLookups(sources);
  const reading = useMeetingReading(meetingId);
  const lookups = useMemo(
    () => ({ ...names, showOfHands, reading: new Map(reading.data?.papers.map((paper) => [paper.documentId, paper])) }),
    [names, showOfHands, reading.data],
  );
  // null: viewing; otherwise the editor opened, `startWithNewItem` when it was opened by 'Add item'.
  const [editing, setEditing] = useState<{ startWithNewItem: boolean } | null>(null);
  const items = agenda.data?.items;
  const total = (items ?? []).reduce((sum, item) => sum + item.durationMinutes, 0);

  let body: ReactNode;
  if (agenda.isPending) {
    body = (
      <div className="grid gap-3" role="status" aria-label="Loading agenda">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  } else if (agenda.isError) {
    body = <LoadError message="The agenda could not be loaded." onRetry={() => void agenda.refetch()} />;
  } else if (editing && items) {
    body = (
      <Suspense fallback={<LoadingSpinner label="Loading the agenda editor" className="py-6" />}>
        <AgendaEditor
          meetingId={meetingId}
          items={items}
          startWithNewItem={editing.startWithNewItem}
          sources={sources}
          onDone={() => setEditing(null)}
        />
      </Suspense>
    );
  } else if (!items || items.length === 0) {
    body = (
      <div className="grid justify-items-start gap-3">
        <p className="text-sm text-muted-foreground">No agenda items yet</p>
        {canEdit && (
          <Button variant="outline" size="sm" onClick={() => setEditing({ startWithNewItem: true })}>
            <ListPlus aria-hidden />
            Add item
          </Button>
        )}
      </div>
    );
  } else {
    body = (
      <div className="grid gap-4">
        <NamesNotLoaded items={items} sources={sources} />
        <AgendaItems items={items} lookups={lookups} />
      </div>
    );
  }

  return (
    <Card id={AGENDA_SECTION_ID} aria-labelledby={`${AGENDA_SECTION_ID}-title`} role="region">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h2 id={`${AGENDA_SECTION_ID}-title`} className="text-lg leading-tight font-semibold">
            Agenda
          </h2>
          {items && items.length > 0 && !editing && (
            <p className="text-sm text-muted-foreground">
              {items.length} {items.length === 1 ? "item" : "items"} · {formatMinutes(total)}
            </p>
          )}
        </div>
        {canEdit && !editing && items && items.length > 0 && (
          <Button variant="outline" size="sm" onClick={() => setEditing({ startWithNewItem: false })}>
            <Pencil aria-hidden />
            Edit agenda
          </Button>
        )}
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

/** When the library or the resolutions failed to load and the agenda names some of them: says so, with a retry. */
function NamesNotLoaded({ items, sources }: { items: readonly AgendaItem[]; sources: MeetingSources }) {
  const papersFailed = sources.library.isError && items.some((item) => item.documentIds.length > 0);
  const resolutionsFailed = sources.resolutions.isError && items.some((item) => item.resolutionIds.length > 0);
  if (!papersFailed && !resolutionsFailed) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/50 p-3" role="alert">
      <p className="text-sm text-destructive">
        {papersFailed && resolutionsFailed
          ? "Paper and resolution details could not be loaded."
          : papersFailed
            ? `${PAPER_NOT_LOADED}.`
            : "Resolution details could not be loaded."}
      </p>
      <Button
        variant="outline"
        size="sm"
        onClick={() => {
          if (papersFailed) sources.library.refetch();
          if (resolutionsFailed) sources.resolutions.refetch();
        }}
      >
        Try again
      </Button>
    </div>
  );
}

export function AgendaItems({ items, lookups }: { items: readonly AgendaItem[]; lookups: AgendaLookups }) {
  return (
    <ol className="grid divide-y" aria-label="Agenda items">
      {items.map((item, index) => (
        <AgendaItemView key={item.id} item={item} number={index + 1} lookups={lookups} />
      ))}
    </ol>
  );
}
