import { FileText, Gavel, Plus } from "lucide-react";
import { useMemo, useState } from "react";
import type { Resolution } from "@shared/resolutions";
import { resolutionTab, type ResolutionTab } from "@shared/resolution-model";
import { ListQueryState, ListScreen, ListSkeleton, type ListQuery } from "@/components/list-screen";
import { VirtualList } from "@/components/virtual-list";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { formatLongDate } from "@/lib/format";
import { ProcedureBadge, ResolutionStatusBadge } from "@/features/resolutions/components/resolution-status-badge";
import { VoteCountsLine } from "@/features/resolutions/components/vote-counts-line";
import { markdownSummary, matchesResolutionSearch } from "@/features/resolutions/lib/resolution-display";

const tabs: { value: ResolutionTab; label: string; empty: string }[] = [
  { value: "pending", label: "Pending", empty: "No pending resolutions." },
  { value: "completed", label: "Completed", empty: "No completed resolutions." },
  { value: "expired", label: "Expired", empty: "No expired resolutions." },
];
const resolutionKey = (resolution: Resolution) => resolution.id;

/** 'Board Resolutions': search on title or description; Pending, Completed and Expired tabs decided against `now`. */
export function ResolutionsList({
  resolutions,
  now,
  onNewResolution,
  onVote,
  onOpen,
}: {
  resolutions: ListQuery<Resolution>;
  now: Date;
  /** Opens the New Resolution dialog; without it (observers) there is no button. */
  onNewResolution?: () => void;
  /** Opens the Cast Your Vote dialog (or, for a written resolution, its details to sign); without it (observers) there is no button. */
  onVote?: (resolution: Resolution) => void;
  onOpen: (resolution: Resolution) => void;
}) {
  const [search, setSearch] = useState("");
  const grouped = useMemo(() => {
    const groups: Record<ResolutionTab, Resolution[]> = { pending: [], completed: [], expired: [] };
    for (const resolution of resolutions.data ?? []) {
      if (matchesResolutionSearch(resolution, search)) groups[resolutionTab(resolution, now)].push(resolution);
    }
    return groups;
  }, [resolutions.data, search, now]);

  return (
    <ListScreen
      title="Board Resolutions"
      description="Propose resolutions, vote on them and see how each was decided."
      action={onNewResolution && { label: "New Resolution", icon: Plus, onClick: onNewResolution }}
      search={{ label: "Search resolutions", placeholder: "Search resolutions...", value: search, onChange: setSearch }}
      tabs={tabs.map((tab) => ({
        value: tab.value,
        label: tab.label,
        content: (
          <ListQueryState
            query={resolutions}
            items={grouped[tab.value]}
            loading={<ListSkeleton label="Loading resolutions" itemClassName="h-32 w-full" />}
            error="The resolutions could not be loaded. Please try again."
            empty={{ icon: Gavel, message: search ? "No resolutions match your search." : tab.empty }}
          >
            {(shown) => (
              // Only the cards on screen are rendered, however many resolutions the board has passed.
              <VirtualList
                label={`${tab.label} resolutions`}
                items={shown}
                getKey={resolutionKey}
                estimateSize={190}
                gap={12}
                renderItem={(resolution) => (
                  <ResolutionCard
                    resolution={resolution}
                    tab={tab.value}
                    onVote={tab.value === "pending" ? onVote : undefined}
                    onOpen={onOpen}
                  />
                )}
              />
            )}
          </ListQueryState>
        ),
      }))}
    />
  );
}

function ResolutionCard({
  resolution,
  tab,
  onVote,
  onOpen,
}: {
  resolution: Resolution;
  tab: ResolutionTab;
  onVote?: (resolution: Resolution) => void;
  onOpen: (resolution: Resolution) => void;
}) {
  const headingId = `resolution-${resolution.id}-title`;
  const written = resolution.procedure === "written";
  return (
    <Card role="article" aria-labelledby={headingId}>
      <CardContent className="grid gap-3 px-4 sm:px-6">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid min-w-0 gap-1">
            <h2 id={headingId} className="font-semibold break-words">
              {resolution.title}
            </h2>
            <p className="text-xs text-muted-foreground">
              {written
                ? `Written resolution${resolution.status === "pending" ? ` · Lapses: ${formatLongDate(resolution.lapsesAt ?? resolution.deadline)}` : ""}`
                : `${resolution.type} · Deadline: ${formatLongDate(resolution.deadline)}`}
              {resolution.documentIds.length > 0 && (
                <span className="ml-2 inline-flex items-center gap-1">
                  <FileText className="size-3" aria-hidden />
                  {resolution.documentIds.length} {resolution.documentIds.length === 1 ? "document" : "documents"}
                </span>
              )}
            </p>
          </div>
          <div className="flex flex-wrap gap-1.5">
            <ProcedureBadge procedure={resolution.procedure} />
            <ResolutionStatusBadge resolution={resolution} tab={tab} />
          </div>
        </div>
        <p className="line-clamp-3 text-sm break-words text-muted-foreground">
          {written ? markdownSummary(resolution.description) : resolution.description}
        </p>
        {resolution.explanation && <p className="text-sm">{resolution.explanation}</p>}
        <div className="flex flex-wrap items-center justify-between gap-3">
          {!written && <VoteCountsLine counts={resolution.voteCounts} />}
          <div className="ml-auto flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => onOpen(resolution)} aria-describedby={headingId}>
              {resolution.status === "pending" ? "Details" : written ? "Outcome" : "Certificate"}
            </Button>
            {onVote && (
              <Button size="sm" onClick={() => (written ? onOpen(resolution) : onVote(resolution))} aria-describedby={headingId}>
                {written ? "Read and sign" : "Cast Your Vote"}
              </Button>
            )}
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
