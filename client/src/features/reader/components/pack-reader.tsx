import { useCallback } from "react";
import * as meetingRecordApi from "@shared/api/meeting-record";
import { ChangedPapersList, type PaperFactsOf } from "@/components/paper-facts";
import { apiUrl } from "@/lib/api-client";
import { recordPackOpened } from "@/features/reader/api/reads";
import { openWithPdfjs } from "@/features/reader/lib/open-pdf";
import type { PdfOpenError, PdfOpener } from "@/features/reader/lib/pdf-source";
import { ReaderFrame } from "@/features/reader/components/reader-frame";
import { ReaderHeader } from "@/features/reader/components/reader-header";
import { ReaderView } from "@/features/reader/components/reader-view";

const openError = (error: PdfOpenError) =>
  error.status === 429 || error.status === 503
    ? "The board pack is still being prepared. Try again in a moment."
    : "The board pack could not be opened.";

/** A paper of the pack that may have changed since the reader read it. */
export type PackPaper = Pick<PaperFactsOf, "id" | "name" | "version" | "readVersion" | "changedSinceRead">;

const noPapers: readonly PackPaper[] = [];

/**
 * A meeting's board pack in the reader, its outline listing each paper. Opening it is recorded once; its pages are not
 * a paper's pages, so they count for no paper's progress, and it has no notes (notes are on the papers themselves).
 * Under its title, the papers that changed since the reader read them, each flag opening what changed.
 */
export function PackReader({
  meetingId,
  meetingTitle,
  papers = noPapers,
  initialPage = 1,
  openPdf = openWithPdfjs,
}: {
  meetingId: number;
  meetingTitle: string;
  /** The meeting's agenda papers the reader may see (the meeting page's). */
  papers?: readonly PackPaper[];
  initialPage?: number;
  openPdf?: PdfOpener;
}) {
  const header = (
    <div className="grid min-w-0 gap-1">
      <ReaderHeader title={`${meetingTitle}: board pack`} back={{ href: `/meetings/${meetingId}`, label: "Back to the meeting" }} />
      <ChangedPapersList papers={papers.filter((paper) => paper.changedSinceRead)} className="text-xs" />
    </div>
  );
  // Recording is best effort: a reader who could open the pack is not stopped because it was not noted.
  const onOpened = useCallback(() => void recordPackOpened(meetingId).catch(() => undefined), [meetingId]);
  return (
    <ReaderFrame
      url={apiUrl(meetingRecordApi.boardPack, { params: { id: meetingId } })}
      openPdf={openPdf}
      header={header}
      errorText={openError}
      onOpened={onOpened}
    >
      {(source, firstPage) => (
        <ReaderView source={source} firstPage={firstPage} initialPage={initialPage} header={header} notes={null} onPagesSeen={null} />
      )}
    </ReaderFrame>
  );
}
