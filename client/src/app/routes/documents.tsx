import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { can } from "@shared/permissions";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useShownOnce } from "@/lib/use-shown-once";
import { useLibrary } from "@/features/documents/api/get-library";
import { DocumentsLibrary } from "@/features/documents/components/documents-library";

// The Upload Document dialog (its form, validation and category select) loads when it is first opened.
const UploadDocumentDialog = lazy(async () => ({
  default: (await import("@/features/documents/components/upload-document-dialog")).UploadDocumentDialog,
}));

/**
 * /documents: the board's library, with the Upload Document dialog (not for observers, whom the server
 * refuses). The dashboard's 'Upload document' lands on /documents?upload=1, which opens the dialog; `?search=`
 * starts the library searched (a written resolution links to its certificates so).
 */
export function DocumentsPage() {
  const { user } = useCurrentUser();
  const library = useLibrary();
  const canUpload = can(user?.role, "uploadDocument");
  const search = useSearch();
  const [, navigate] = useLocation();
  const [uploading, setUploading] = useState(false);
  const uploadShown = useShownOnce(uploading);

  useEffect(() => {
    if (!canUpload || !new URLSearchParams(search).has("upload")) return;
    // As the quick action asks: the page first, then the dialog a moment later; the query is dropped so a reload does not reopen it.
    const timer = window.setTimeout(() => {
      setUploading(true);
      navigate("/documents", { replace: true });
    }, 100);
    return () => window.clearTimeout(timer);
  }, [canUpload, search, navigate]);

  return (
    <>
      <DocumentsLibrary
        documents={library}
        userId={user?.id}
        role={user?.role}
        onUpload={canUpload ? () => setUploading(true) : undefined}
        initialSearch={new URLSearchParams(search).get("search") ?? ""}
      />
      {canUpload && uploadShown && (
        <Suspense fallback={null}>
          <UploadDocumentDialog open={uploading} onOpenChange={setUploading} />
        </Suspense>
      )}
    </>
  );
}
