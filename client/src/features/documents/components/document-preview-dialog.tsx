import { Download, ExternalLink, FileText } from "lucide-react";
import { useQuery } from "@tanstack/react-query";
import { isPreviewable, type LibraryDocument } from "@shared/documents";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { apiRequest } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { formatFileSize } from "@/lib/format";
import { documentKeys } from "@/features/documents/api/document-keys";
import { useDocument } from "@/features/documents/api/get-document";
import { downloadUrl } from "@/features/documents/lib/download-url";
import { uploadedLine } from "@/features/documents/lib/uploaded-line";

/** The preview dialog: a PDF or an image shown from the download URL, text as text, anything else as a file card; with a Download. */
export function DocumentPreviewDialog({
  document,
  onOpenChange,
}: {
  document: LibraryDocument | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={document !== null} onOpenChange={onOpenChange}>
      <DialogContent className="grid max-h-[90vh] grid-rows-[auto_minmax(0,1fr)_auto] sm:max-w-3xl">
        {document && (
          <>
            <DialogHeader>
              <DialogTitle className="break-words">{document.name}</DialogTitle>
              <DialogDescription>
                {document.category} · {formatFileSize(document.fileSize)} · {uploadedLine(document)}
              </DialogDescription>
            </DialogHeader>
            <div className="min-h-0 overflow-auto rounded-md border bg-muted/30">
              <PreviewBody document={document} />
            </div>
            {/* A PDF the browser cannot show has its own card with Download; one is enough. */}
            {!showsPdfCard(document) && (
              <div className="flex justify-end">
                <Button asChild>
                  <a href={downloadUrl(document.id)} download>
                    <Download aria-hidden />
                    Download
                  </a>
                </Button>
              </div>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function PreviewBody({ document }: { document: LibraryDocument }) {
  if (!document.hasFile) return document.truncated ? <WholeNote id={document.id} /> : <NoteText text={document.content} />;
  if (showsPdfCard(document)) return <PdfFileCard document={document} />;
  if (document.fileType === "application/pdf") {
    return <iframe title={`Preview of ${document.name}`} src={downloadUrl(document.id, true)} className="h-[60vh] w-full bg-white" />;
  }
  if (document.fileType.startsWith("image/")) {
    return <img src={downloadUrl(document.id, true)} alt={document.name} className="mx-auto max-h-[60vh] object-contain" />;
  }
  if (isPreviewable(document.fileType)) return <TextPreview id={document.id} />;
  return (
    <div className="flex flex-col items-center gap-2 p-8 text-center">
      <FileText className="size-12 text-muted-foreground" aria-hidden />
      <p className="font-medium break-all">{document.name}</p>
      <p className="text-sm text-muted-foreground">No preview for this type of file: download it to open it.</p>
    </div>
  );
}

/**
 * Whether this browser displays PDFs itself. Browsers without a viewer (many phones, some embedded or
 * locked-down browsers) say so with `navigator.pdfViewerEnabled === false`; a frame would stay blank there.
 * One that does not say (an older browser) is given the frame.
 */
export function browserShowsPdfs(): boolean {
  return (navigator as Navigator & { pdfViewerEnabled?: boolean }).pdfViewerEnabled !== false;
}

const showsPdfCard = (document: LibraryDocument) => document.hasFile && document.fileType === "application/pdf" && !browserShowsPdfs();

/** A PDF the browser cannot show: a file card that downloads it or opens it in a new tab (where the system's viewer may take it). */
function PdfFileCard({ document }: { document: LibraryDocument }) {
  return (
    <div className="flex flex-col items-center gap-2 p-8 text-center" data-testid="pdf-fallback">
      <FileText className="size-12 text-muted-foreground" aria-hidden />
      <p className="font-medium break-all">{document.name}</p>
      <p className="text-sm text-muted-foreground">This browser cannot show PDFs here: download it or open it in a new tab.</p>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Button asChild variant="outline">
          <a href={downloadUrl(document.id)} download>
            <Download aria-hidden />
            Download
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={downloadUrl(document.id, true)} target="_blank" rel="noopener noreferrer">
            <ExternalLink aria-hidden />
            Open in new tab
          </a>
        </Button>
      </div>
    </div>
  );
}

function NoteText({ text }: { text: string | null }) {
  return <p className="p-4 text-sm whitespace-pre-wrap break-words">{text ?? "This document has no file."}</p>;
}

/** A note longer than the list's preview: its whole text is read on its own. */
function WholeNote({ id }: { id: number }) {
  const note = useDocument(id);
  if (note.isPending) return <p className="p-4 text-sm text-muted-foreground">Loading the note…</p>;
  if (note.isError) return <p className="p-4 text-sm text-destructive">The note could not be loaded.</p>;
  return <NoteText text={note.data.content} />;
}

function TextPreview({ id }: { id: number }) {
  const companyId = useActiveCompany();
  const text = useQuery({
    queryKey: documentKeys.text(companyId, id),
    queryFn: async () => (await apiRequest("GET", downloadUrl(id, true))).text(),
    staleTime: Infinity,
  });
  if (text.isPending) return <p className="p-4 text-sm text-muted-foreground">Loading preview…</p>;
  if (text.isError) return <p className="p-4 text-sm text-destructive">The preview could not be loaded.</p>;
  return <pre className="p-4 text-sm whitespace-pre-wrap break-words">{text.data}</pre>;
}
