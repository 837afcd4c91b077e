import { BookOpen, Eye, EyeOff } from "lucide-react";
import { useId, type ReactNode } from "react";
import { readingMinutes, readingTimeText } from "@shared/reading-time";
import { Link } from "wouter";
import { ChangedPapersList, readReceiptsLine, type PaperFactsOf } from "@/components/paper-facts";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { useMeetingReading } from "@/features/meetings/api/reading";

/** "You have opened 18 of 42 pages (43%)"; null when no paper has a known page count. */
export function progressLine(papers: readonly { pages: number | null; pagesRead: number }[]): { text: string; percent: number } | null {
  const total = papers.reduce((sum, paper) => sum + (paper.pages ?? 0), 0);
  if (total === 0) return null;
  const read = papers.reduce((sum, paper) => sum + (paper.pages == null ? 0 : Math.min(paper.pagesRead, paper.pages)), 0);
  const percent = Math.round((read / total) * 100);
  return { text: `You have opened ${read} of ${total} pages (${percent}%)`, percent };
}

/** "Board pack: 42 pages · 1 h 24 min" for the papers whose pages are known. */
export function packTotalLine(papers: readonly Pick<PaperFactsOf, "pages">[]): string | null {
  const pages = papers.reduce((sum, paper) => sum + (paper.pages ?? 0), 0);
  if (pages === 0) return null;
  return `Board pack: ${pages} ${pages === 1 ? "page" : "pages"} · ${readingTimeText(readingMinutes(pages)!)}`;
}

/**
 * The meeting's reading: the pack's length, the viewer's own progress through its papers, the papers changed since
 * they read them, whether the secretary sees who opened what, and their notes to export.
 */
export function MeetingReadingCard({
  meetingId,
  papers,
  readReceipts,
  exportNotes,
}: {
  meetingId: number;
  /** The agenda's papers the viewer may see, as the library lists them. */
  papers: readonly PaperFactsOf[];
  /** The board's setting; undefined while it loads. */
  readReceipts: boolean | undefined;
  /** The viewer's "Export my notes" (the reader's). */
  exportNotes?: ReactNode;
}) {
  const reading = useMeetingReading(meetingId);
  const progress = reading.data ? progressLine(reading.data.papers) : null;
  const total = packTotalLine(papers);
  const changed = papers.filter((paper) => paper.changedSinceRead);
  const changedHeadingId = useId();

  return (
    <Card role="region" aria-labelledby="meeting-reading-title">
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h2 id="meeting-reading-title" className="text-lg leading-tight font-semibold">
            Your reading
          </h2>
          {total && <p className="text-sm text-muted-foreground">{total}</p>}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm">
            <Link href={`/meetings/${meetingId}/pack`}>
              <BookOpen aria-hidden />
              Read the pack
            </Link>
          </Button>
          {exportNotes}
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        {reading.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            Loading your progress…
          </p>
        ) : reading.isError ? (
          <p className="text-sm text-muted-foreground">Your progress could not be loaded.</p>
        ) : progress ? (
          <div className="grid gap-1">
            <p className="text-sm">{progress.text}</p>
            <Progress value={progress.percent} aria-label="Pages opened" />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">No paper on this agenda has pages to read yet.</p>
        )}
        {changed.length > 0 && (
          <div className="grid gap-1">
            <p id={changedHeadingId} className="text-sm font-medium">
              Changed since you read them
            </p>
            <ChangedPapersList papers={changed} labelledBy={changedHeadingId} className="text-sm" />
          </div>
        )}
        {readReceipts !== undefined && (
          <p className="flex items-start gap-2 text-sm text-muted-foreground [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0">
            {readReceipts ? <Eye aria-hidden /> : <EyeOff aria-hidden />}
            {readReceiptsLine(readReceipts)}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
