import { FileText } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { formatFileSize, formatLongDate } from "@/lib/format";
import { useRecentDocuments } from "@/features/documents/api/get-recent-documents";

/** The dashboard's Recent Documents: the newest five files, with size and uploader. */
export function RecentDocumentsPanel() {
  const recent = useRecentDocuments();
  return (
    <Card aria-labelledby="recent-documents-heading">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle id="recent-documents-heading" role="heading" aria-level={2} className="text-lg">
          Recent Documents
        </CardTitle>
        <Button asChild variant="link" size="sm" className="px-0">
          <Link href="/documents">View all</Link>
        </Button>
      </CardHeader>
      <CardContent>
        {recent.isPending ? (
          <div className="grid gap-3" role="status" aria-label="Loading recent documents">
            {[0, 1, 2].map((key) => (
              <Skeleton key={key} className="h-14 w-full" />
            ))}
          </div>
        ) : recent.isError ? (
          <p className="text-sm text-destructive">The recent documents could not be loaded.</p>
        ) : recent.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No documents uploaded yet.</p>
        ) : (
          <ul className="grid gap-3">
            {recent.data.map((document) => (
              <li key={document.id} className="flex items-start gap-3 rounded-lg border p-3">
                <FileText className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
                <div className="grid min-w-0 gap-0.5">
                  <p className="font-medium break-words">{document.name}</p>
                  <p className="text-sm text-muted-foreground">{formatFileSize(document.fileSize)}</p>
                  <p className="text-sm text-muted-foreground">
                    Uploaded by {document.uploader} • {formatLongDate(document.createdAt)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
