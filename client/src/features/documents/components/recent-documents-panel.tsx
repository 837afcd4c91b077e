import { FileText } from "lucide-react";
import { DashboardPanel } from "@/components/dashboard-panel";
import { formatFileSize } from "@/lib/format";
import { useRecentDocuments } from "@/features/documents/api/get-recent-documents";
import { uploadedLine } from "@/features/documents/lib/uploaded-line";

/** The dashboard's Recent Documents: the newest five files, with size and uploader. */
export function RecentDocumentsPanel({ className }: { className?: string }) {
  const recent = useRecentDocuments();
  return (
    <DashboardPanel
      title="Recent Documents"
      viewAllHref="/documents"
      query={recent}
      empty={recent.data?.length === 0}
      emptyText="No documents uploaded yet."
      skeletonClassName="h-14"
      className={className}
    >
      <ul className="grid gap-3">
        {(recent.data ?? []).map((document) => (
          <li key={document.id} className="flex items-start gap-3 rounded-lg border p-3">
            <FileText className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
            <div className="grid min-w-0 gap-0.5">
              <p className="font-medium break-words">{document.name}</p>
              <p className="text-sm text-muted-foreground">{formatFileSize(document.fileSize)}</p>
              <p className="text-sm text-muted-foreground">{uploadedLine(document)}</p>
            </div>
          </li>
        ))}
      </ul>
    </DashboardPanel>
  );
}
