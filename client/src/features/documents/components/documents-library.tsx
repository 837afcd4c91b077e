import { FileImage, FileText, File as FileIcon, LayoutGrid, List, Upload, type LucideIcon } from "lucide-react";
import { lazy, Suspense, useMemo, useState, useSyncExternalStore } from "react";
import { libraryCategories } from "@shared/document-categories";
import type { LibraryDocument } from "@shared/documents";
import { canDeleteDocument } from "@shared/permissions";
import type { CompanyRole } from "@shared/roles";
import { ListFrame, ListQueryState, ListSkeleton, type ListQuery } from "@/components/list-frame";
import { PaperFacts } from "@/components/paper-facts";
import { VirtualList, type ColumnBreakpoint } from "@/components/virtual-list";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialogOnDemand } from "@/components/ui/confirm-dialog-on-demand";
import { SelectOnDemand } from "@/components/ui/select-on-demand";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { formatFileSize } from "@/lib/format";
import { useShownOnce } from "@/lib/use-shown-once";
import { cn } from "@/lib/utils";
import { useDeleteDocument } from "@/features/documents/api/delete-document";
import { DocumentActions, type DocumentActionHandlers } from "@/features/documents/components/document-actions";
import { uploadedLine } from "@/features/documents/lib/uploaded-line";

// A row's dialogs load when first opened: their code (Radix's dialog, the replace form and its validation) is not
// needed to draw the library.
const DocumentPreviewDialog = lazy(async () => ({
  default: (await import("@/features/documents/components/document-preview-dialog")).DocumentPreviewDialog,
}));
const VersionHistoryDialog = lazy(async () => ({
  default: (await import("@/features/documents/components/version-history-dialog")).VersionHistoryDialog,
}));
const ReplaceDocumentDialog = lazy(async () => ({
  default: (await import("@/features/documents/components/replace-document-dialog")).ReplaceDocumentDialog,
}));

export type ViewMode = "list" | "grid";
const viewModes: { value: ViewMode; label: string; icon: LucideIcon }[] = [
  { value: "list", label: "List view", icon: List },
  { value: "grid", label: "Grid view", icon: LayoutGrid },
];
const gridClassName = "grid gap-4 sm:grid-cols-2 lg:grid-cols-3";
/** The grid's columns, as gridClassName lays out its placeholders: two from `sm`, three from `lg`. */
const gridColumns: readonly ColumnBreakpoint[] = [
  { minWidth: "40rem", count: 2 },
  { minWidth: "64rem", count: 3 },
];
const documentKey = (document: LibraryDocument) => document.id;
const allCategories = "All";
const categoryOptions = [{ value: allCategories, label: "All Categories" }, ...libraryCategories.map((value) => ({ value, label: value }))];

/** Where a user's choice of list or grid is kept in this browser (default list). */
export const viewModeKey = (userId: number | null | undefined) => `quorum.documentsView.${userId ?? "anonymous"}`;
const viewListeners = new Set<() => void>();

function readViewMode(userId: number | null | undefined): ViewMode {
  try {
    return window.localStorage.getItem(viewModeKey(userId)) === "grid" ? "grid" : "list";
  } catch {
    return "list";
  }
}

function useViewMode(userId: number | null | undefined): [ViewMode, (mode: ViewMode) => void] {
  const mode = useSyncExternalStore(
    (listener) => {
      viewListeners.add(listener);
      return () => viewListeners.delete(listener);
    },
    () => readViewMode(userId),
  );
  const setMode = (next: ViewMode) => {
    try {
      window.localStorage.setItem(viewModeKey(userId), next);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    for (const listener of viewListeners) listener();
  };
  return [mode, setMode];
}

/** Case-insensitive search by name or category, then the category filter. */
export function filterDocuments(documents: readonly LibraryDocument[], search: string, category: string): LibraryDocument[] {
  const needle = search.trim().toLowerCase();
  return documents.filter(
    (document) =>
      (category === allCategories || document.category === category) &&
      (!needle || document.name.toLowerCase().includes(needle) || document.category.toLowerCase().includes(needle)),
  );
}

function TypeIcon({ fileType, className }: { fileType: string; className?: string }) {
  const Icon = fileType.startsWith("image/")
    ? FileImage
    : fileType === "application/pdf" || fileType.startsWith("text/") || fileType.includes("word")
      ? FileText
      : FileIcon;
  return <Icon className={cn("shrink-0 text-primary", className)} aria-hidden />;
}

export interface DocumentsLibraryProps {
  documents: ListQuery<LibraryDocument>;
  userId: number | null | undefined;
  role: CompanyRole | null | undefined;
  onUpload?: () => void;
  /** The search the page starts with (a link to a kind of document: "/documents?search=Resolution Certificates"). */
  initialSearch?: string;
}

/** /documents: search, category filter, list or grid, preview, download, history and (for those allowed) replace and delete. */
export function DocumentsLibrary({ documents, userId, role, onUpload, initialSearch = "" }: DocumentsLibraryProps) {
  const [search, setSearch] = useState(initialSearch);
  const [category, setCategory] = useState(allCategories);
  const [mode, setMode] = useViewMode(userId);
  const [previewing, setPreviewing] = useState<LibraryDocument | null>(null);
  const [deleting, setDeleting] = useState<LibraryDocument | null>(null);
  const [replacing, setReplacing] = useState<LibraryDocument | null>(null);
  const [history, setHistory] = useState<LibraryDocument | null>(null);
  const previewed = useShownOnce(previewing !== null);
  const replaced = useShownOnce(replacing !== null);
  const historyShown = useShownOnce(history !== null);
  const remove = useDeleteDocument();
  const shown = useMemo(() => filterDocuments(documents.data ?? [], search, category), [documents.data, search, category]);
  const mayDelete = (document: LibraryDocument) => canDeleteDocument(role, document.uploadedBy != null && document.uploadedBy === userId);

  const confirmDelete = () => {
    if (!deleting) return;
    const { id, name } = deleting;
    remove.mutate(id, {
      onSuccess: () => toast({ title: "Document deleted", description: `${name} was removed from the library.` }),
      onError: (error) =>
        toast({
          title: "Delete failed",
          description: serverMessageOf(error) ?? "The document could not be deleted.",
          variant: "destructive",
        }),
      onSettled: () => setDeleting(null),
    });
  };

  const handlers: DocumentActionHandlers = {
    onPreview: setPreviewing,
    onHistory: setHistory,
    onReplace: setReplacing,
    onDelete: setDeleting,
  };
  const actions = (document: LibraryDocument) => (
    <DocumentActions document={document} mayChange={mayDelete(document)} handlers={handlers} />
  );
  const meta = (document: LibraryDocument) => (
    <>
      <span className="text-sm text-muted-foreground">{formatFileSize(document.fileSize)}</span>
      <span className="text-sm text-muted-foreground">{uploadedLine(document)}</span>
      <PaperFacts paper={document} />
    </>
  );

  return (
    <ListFrame
      title="Documents"
      description="The board's papers, in one library."
      action={onUpload && { label: "Upload Document", icon: Upload, onClick: onUpload }}
      search={{ label: "Search documents", placeholder: "Search documents...", value: search, onChange: setSearch }}
      filters={
        <>
          <SelectOnDemand
            label="Filter by category"
            value={category}
            options={categoryOptions}
            onValueChange={setCategory}
            className="w-full sm:w-44"
          />
          <div role="group" aria-label="View" className="flex shrink-0 rounded-md border p-0.5">
            {viewModes.map(({ value, label, icon: Icon }) => (
              <Button
                key={value}
                variant={mode === value ? "secondary" : "ghost"}
                size="icon"
                aria-label={label}
                aria-pressed={mode === value}
                onClick={() => setMode(value)}
                className="size-8"
              >
                <Icon aria-hidden />
              </Button>
            ))}
          </div>
        </>
      }
    >
      <ListQueryState
        query={documents}
        items={shown}
        loading={
          <ListSkeleton
            label="Loading documents"
            count={4}
            className={mode === "grid" ? gridClassName : "grid gap-3"}
            itemClassName={mode === "grid" ? "h-40 w-full" : "h-16 w-full"}
          />
        }
        error="The documents could not be loaded."
        empty={{
          icon: FileText,
          title: "No documents found",
          message: documents.data?.length ? "Try a different search or category." : "Upload your first document to get started.",
        }}
      >
        {(listed) =>
          // Only the rows on screen are rendered: a library of thousands stays a few hundred elements.
          mode === "list" ? (
            <VirtualList
              key="list"
              label="Documents"
              items={listed}
              getKey={documentKey}
              estimateSize={82}
              gap={12}
              renderItem={(document) => (
                <div className="flex flex-wrap items-center gap-3 rounded-lg border bg-card p-3 sm:flex-nowrap sm:p-4">
                  <TypeIcon fileType={document.fileType} className="size-8" />
                  <div className="grid min-w-0 flex-1 basis-40 gap-1">
                    <div className="flex min-w-0 flex-wrap items-center gap-2">
                      <p className="min-w-0 font-medium break-words">{document.name}</p>
                      <Badge variant="secondary">{document.category}</Badge>
                    </div>
                    <div className="flex flex-wrap gap-x-3 gap-y-0.5">{meta(document)}</div>
                  </div>
                  {actions(document)}
                </div>
              )}
            />
          ) : (
            <VirtualList
              key="grid"
              label="Documents"
              items={listed}
              getKey={documentKey}
              estimateSize={206}
              gap={16}
              columns={gridColumns}
              itemClassName="flex"
              renderItem={(document) => (
                <div className="flex flex-1 flex-col gap-3 rounded-lg border bg-card p-4">
                  <div className="flex items-start justify-between gap-2">
                    <TypeIcon fileType={document.fileType} className="size-10" />
                    <Badge variant="secondary">{document.category}</Badge>
                  </div>
                  <p className="font-medium break-words">{document.name}</p>
                  <div className="grid gap-0.5">{meta(document)}</div>
                  <div className="mt-auto border-t pt-2">{actions(document)}</div>
                </div>
              )}
            />
          )
        }
      </ListQueryState>

      {previewed && (
        <Suspense fallback={null}>
          <DocumentPreviewDialog document={previewing} onOpenChange={(open) => !open && setPreviewing(null)} />
        </Suspense>
      )}
      {historyShown && (
        <Suspense fallback={null}>
          <VersionHistoryDialog document={history} onOpenChange={(open) => !open && setHistory(null)} />
        </Suspense>
      )}
      {replaced && (
        <Suspense fallback={null}>
          <ReplaceDocumentDialog document={replacing} onOpenChange={(open) => !open && setReplacing(null)} />
        </Suspense>
      )}
      <ConfirmDialogOnDemand
        open={deleting !== null}
        title="Delete document?"
        description={<>{deleting?.name} and its file will be permanently deleted. Resolutions that cite it will no longer list it.</>}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </ListFrame>
  );
}
