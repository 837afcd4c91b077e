import type { SearchResult } from "@shared/search";
import { formatLongDate } from "@/lib/format";
import { cn } from "@/lib/utils";
import { resultKinds } from "@/features/search/lib/result-kinds";
import { Snippet } from "@/features/search/lib/snippet";

/** The day a result happened on, or nothing when the server's time cannot be read. */
function dayOf(at: string): string | null {
  return Number.isNaN(Date.parse(at)) ? null : formatLongDate(at);
}

/**
 * What a result shows, in the dialog and on the search page alike: its kind (icon and word), its title, the snippet
 * with the matched words marked, a paper's page, the board it is from when that is not the active one, and its day.
 */
export function SearchResultContent({
  result,
  otherBoard,
  compact = false,
  className,
}: {
  result: SearchResult;
  otherBoard: boolean;
  /** In the dialog: a long title is cut to one line. */
  compact?: boolean;
  className?: string;
}) {
  const kind = resultKinds[result.kind];
  const Icon = kind.icon;
  const facts = [kind.label, result.page != null && `page ${result.page}`, otherBoard && result.companyName, dayOf(result.at)].filter(
    Boolean,
  );
  return (
    <div className={cn("flex min-w-0 gap-3", className)}>
      <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />
      <div className="grid min-w-0 flex-1 gap-1">
        <p className={cn("font-medium", compact ? "truncate" : "break-words")}>{result.title}</p>
        {result.snippet && <Snippet snippet={result.snippet} className="line-clamp-2 text-sm break-words text-muted-foreground" />}
        <p className="text-xs break-words text-muted-foreground">{facts.join(" · ")}</p>
      </div>
    </div>
  );
}
