import { useMemo } from "react";
import { useParams, useSearch } from "wouter";
import { maxVersion } from "@shared/paper-versions";
import { LoadError } from "@/components/load-error";
import { ApiError } from "@/lib/api-client";
import { useDocument } from "@/features/documents/api/get-document";
import { PaperReader } from "@/features/reader/components/paper-reader";
import { numberParam } from "@/features/reader/lib/address";
import { highlightTerms } from "@/features/reader/lib/highlight";

/**
 * /documents/:id/read: a paper in the reader, at `?page=` (from 1) and, with `?version=`, an earlier version read-only;
 * `?highlight=` marks its words on every page (a board search's hit opens the paper so).
 * The reader itself (with pdf.js, loaded when it opens) is the reader feature's; this page finds the paper.
 */
export function DocumentReaderPage() {
  const params = useParams<{ id: string }>();
  const query = new URLSearchParams(useSearch());
  const highlightParam = query.get("highlight");
  const highlights = useMemo(() => highlightTerms(highlightParam), [highlightParam]);
  const id = numberParam(params.id, 999_999_999);
  const document = useDocument(id);
  const back = { href: "/documents", label: "Back to documents" };

  if (id == null || (document.isError && document.error instanceof ApiError && document.error.status === 404)) {
    return <p role="alert">Document not found.</p>;
  }
  if (document.isError) return <LoadError message="The document could not be loaded." onRetry={() => void document.refetch()} />;
  if (document.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading the document…
      </p>
    );
  }
  return (
    <PaperReader
      key={`${document.data.id}-${document.data.version}-${query.get("version") ?? ""}`}
      document={document.data}
      version={numberParam(query.get("version"), maxVersion)}
      initialPage={numberParam(query.get("page"), 100_000) ?? 1}
      highlights={highlights}
      back={back}
    />
  );
}
