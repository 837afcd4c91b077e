import { useCallback, useMemo } from "react";
import { Link } from "wouter";
import * as documentsApi from "@shared/api/documents";
import type { DocumentObject } from "@shared/documents";
import { apiUrl } from "@/lib/api-client";
import { useNotes } from "@/features/reader/api/notes";
import { recordReads } from "@/features/reader/api/reads";
import { openWithPdfjs } from "@/features/reader/lib/open-pdf";
import type { PdfOpenError, PdfOpener } from "@/features/reader/lib/pdf-source";
import { NotesPanel } from "@/features/reader/components/notes-panel";
import { NotReadable, ReaderFrame } from "@/features/reader/components/reader-frame";
import { ReaderHeader } from "@/features/reader/components/reader-header";
import { ReaderView, type ReaderNotes } from "@/features/reader/components/reader-view";

const openError = (error: PdfOpenError) =>
  error.status === 404 ? "This version of the document could not be found." : "The document could not be opened.";

/**
 * A paper in the reader: its latest version with the reader's private notes, or (`version`) an earlier one,
 * read-only. The pages seen are recorded as the reader's progress through that version.
 */
export function PaperReader({
  document,
  version: asked,
  initialPage = 1,
  highlights,
  back,
  openPdf = openWithPdfjs,
}: {
  document: DocumentObject;
  version?: number | null;
  initialPage?: number;
  /** Words to mark on every page: the board search that opened it (see highlightTerms). */
  highlights?: readonly string[];
  back: { href: string; label: string };
  openPdf?: PdfOpener;
}) {
  const { id, version: latest } = document;
  const version = asked ?? latest;
  const readOnly = version !== latest;
  const url =
    version === latest
      ? apiUrl(documentsApi.downloadDocument, { params: { id }, query: { inline: 1 } })
      : apiUrl(documentsApi.downloadVersion, { params: { id, version }, query: { inline: 1 } });
  const header = <ReaderHeader title={document.name} back={back} detail={readOnly ? `Version ${version} of ${latest}` : undefined} />;
  const onPagesSeen = useCallback((pages: number[]) => recordReads(id, version, pages), [id, version]);
  const notes = usePaperNotes(document, readOnly);

  if (!document.hasFile || document.fileType !== "application/pdf") {
    return <NotReadable header={header} download={apiUrl(documentsApi.downloadDocument, { params: { id }, query: {} })} />;
  }
  return (
    <ReaderFrame url={url} openPdf={openPdf} header={header} errorText={openError}>
      {(source, firstPage) => (
        <ReaderView
          source={source}
          firstPage={firstPage}
          initialPage={initialPage}
          header={header}
          notes={notes}
          onPagesSeen={onPagesSeen}
          highlights={highlights}
        />
      )}
    </ReaderFrame>
  );
}

/** The notes side of a paper: the panel and what the pages mark. An earlier version shows where the notes are instead. */
function usePaperNotes(document: DocumentObject, readOnly: boolean): ReaderNotes {
  const notes = useNotes(document.id, !readOnly);
  return useMemo(() => {
    const quotesByPage = new Map<number, string[]>();
    const noteCounts = new Map<number, number>();
    if (!readOnly) {
      for (const note of notes.data ?? []) {
        if (note.unplaced) continue;
        noteCounts.set(note.page, (noteCounts.get(note.page) ?? 0) + 1);
        if (note.quote) quotesByPage.set(note.page, [...(quotesByPage.get(note.page) ?? []), note.quote]);
      }
    }
    const panel: ReaderNotes["panel"] = readOnly
      ? () => <EarlierVersionNotice id={document.id} latest={document.version} />
      : (props) => <NotesPanel documentId={document.id} latestVersion={document.version} {...props} />;
    return { panel, quotesByPage, noteCounts, writable: !readOnly };
  }, [notes.data, readOnly, document.id, document.version]);
}

function EarlierVersionNotice({ id, latest }: { id: number; latest: number }) {
  return (
    <aside aria-label="My notes" className="grid gap-2 text-sm">
      <h2 className="text-base font-semibold">My notes</h2>
      <p className="text-muted-foreground">This is an earlier version, to read only: notes are written on the latest version.</p>
      <Link href={`/documents/${id}/read`} className="font-medium text-primary underline-offset-4 hover:underline">
        Open the latest version ({latest})
      </Link>
    </aside>
  );
}
