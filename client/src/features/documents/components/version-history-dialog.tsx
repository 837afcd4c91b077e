import { format } from "date-fns";
import { BookOpen, Download, FileDiff } from "lucide-react";
import { Link } from "wouter";
import type { DocumentVersion } from "@shared/paper-versions";
import { LoadError } from "@/components/load-error";
import { compareHref } from "@/components/paper-facts";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { formatFileSize } from "@/lib/format";
import { readerHref, useVersions, versionDownloadUrl } from "@/features/documents/api/versions";

/** A paper whose history can be shown. */
export interface HistoryOf {
  id: number;
  name: string;
}

/** 'History': every version of a paper, newest first, with who uploaded it, when, why, its size and pages; open or download any. */
export function VersionHistoryDialog({ document, onOpenChange }: { document: HistoryOf | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={document !== null} onOpenChange={onOpenChange}>
      <DialogContent className="grid max-h-[90vh] grid-rows-[auto_minmax(0,1fr)] sm:max-w-2xl">
        {document && (
          <>
            <DialogHeader>
              <DialogTitle className="break-words">History of {document.name}</DialogTitle>
              <DialogDescription>Every version is kept: open or download any of them.</DialogDescription>
            </DialogHeader>
            <div className="min-h-0 overflow-auto">
              <VersionList document={document} />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function VersionList({ document }: { document: HistoryOf }) {
  const versions = useVersions(document.id);
  if (versions.isPending) {
    return (
      <div className="grid gap-3" role="status" aria-label="Loading versions">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
      </div>
    );
  }
  if (versions.isError) return <LoadError message="The versions could not be loaded." onRetry={() => void versions.refetch()} />;
  if (versions.data.length === 0) return <p className="text-sm text-muted-foreground">This paper has no file versions.</p>;
  return (
    <ol className="grid gap-3" aria-label="Versions">
      {versions.data.map((version) => (
        <VersionRow key={version.version} document={document} version={version} />
      ))}
    </ol>
  );
}

function VersionRow({ document, version }: { document: HistoryOf; version: DocumentVersion }) {
  const label = `version ${version.version}`;
  const facts = [
    version.uploadedBy ?? "A former member",
    format(new Date(version.uploadedAt), "d MMM yyyy HH:mm"),
    formatFileSize(version.fileSize),
    ...(version.pages != null ? [`${version.pages} ${version.pages === 1 ? "page" : "pages"}`] : []),
  ];
  return (
    <li className="grid gap-2 rounded-lg border p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
      <div className="grid min-w-0 gap-1">
        <p className="font-medium">Version {version.version}</p>
        <p className="text-sm break-words text-muted-foreground">{facts.join(" · ")}</p>
        {version.note ? (
          <p className="text-sm break-words whitespace-pre-wrap">{version.note}</p>
        ) : (
          <p className="text-sm text-muted-foreground italic">{version.version === 1 ? "First version" : "No note"}</p>
        )}
      </div>
      <div className="flex flex-wrap gap-1">
        <Button asChild variant="outline" size="sm">
          <Link href={readerHref(document.id, version.version)} aria-label={`Open ${label}`}>
            <BookOpen aria-hidden />
            Open
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <a href={versionDownloadUrl(document.id, version.version)} download aria-label={`Download ${label}`}>
            <Download aria-hidden />
            Download
          </a>
        </Button>
        {version.version > 1 && (
          <Button asChild variant="ghost" size="sm">
            <Link href={compareHref(document.id, version.version - 1, version.version)} aria-label={`What changed in ${label}`}>
              <FileDiff aria-hidden />
              What changed
            </Link>
          </Button>
        )}
      </div>
    </li>
  );
}
