import { BookOpen, Download, Eye, FileUp, History, Trash2 } from "lucide-react";
import { Link } from "wouter";
import type { LibraryDocument } from "@shared/documents";
import { Button } from "@/components/ui/button";
import { readerHref } from "@/features/documents/api/versions";
import { downloadUrl } from "@/features/documents/lib/download-url";

/** What a library row's buttons do. */
export interface DocumentActionHandlers {
  onPreview: (document: LibraryDocument) => void;
  onHistory: (document: LibraryDocument) => void;
  onReplace: (document: LibraryDocument) => void;
  onDelete: (document: LibraryDocument) => void;
}

/**
 * A library row's buttons: a PDF read in the app's reader, preview and download; a file's history; and for its uploader (unless an observer),
 * founders and admins, replace and delete.
 */
export function DocumentActions({
  document,
  mayChange,
  handlers,
}: {
  document: LibraryDocument;
  /** Replace and delete, as the server allows them. */
  mayChange: boolean;
  handlers: DocumentActionHandlers;
}) {
  return (
    <div className="flex shrink-0 flex-wrap items-center gap-1">
      {document.hasFile && document.fileType === "application/pdf" && (
        <Button asChild variant="ghost" size="icon">
          <Link href={readerHref(document.id)} aria-label={`Read ${document.name}`}>
            <BookOpen aria-hidden />
          </Link>
        </Button>
      )}
      <Button variant="ghost" size="icon" aria-label={`Preview ${document.name}`} onClick={() => handlers.onPreview(document)}>
        <Eye aria-hidden />
      </Button>
      {document.hasFile && (
        <>
          <Button asChild variant="ghost" size="icon">
            <a href={downloadUrl(document.id)} download aria-label={`Download ${document.name}`}>
              <Download aria-hidden />
            </a>
          </Button>
          <Button variant="ghost" size="icon" aria-label={`History of ${document.name}`} onClick={() => handlers.onHistory(document)}>
            <History aria-hidden />
          </Button>
        </>
      )}
      {mayChange && document.hasFile && (
        <Button variant="ghost" size="icon" aria-label={`Replace ${document.name}`} onClick={() => handlers.onReplace(document)}>
          <FileUp aria-hidden />
        </Button>
      )}
      {mayChange && (
        <Button
          variant="ghost"
          size="icon"
          aria-label={`Delete ${document.name}`}
          className="text-destructive hover:text-destructive"
          onClick={() => handlers.onDelete(document)}
        >
          <Trash2 aria-hidden />
        </Button>
      )}
    </div>
  );
}
