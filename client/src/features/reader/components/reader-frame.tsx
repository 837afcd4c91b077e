import { FileWarning, Loader2 } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { LoadError } from "@/components/load-error";
import type { PdfOpenError, PdfOpener, PdfPage, PdfSource } from "@/features/reader/lib/pdf-source";
import { usePdf } from "@/features/reader/lib/use-pdf";

/** Opens the PDF at `url` and shows the reader once its first page can be drawn; until then, where it is. */
export function ReaderFrame({
  url,
  openPdf,
  header,
  errorText,
  onOpened,
  children,
}: {
  url: string;
  openPdf: PdfOpener;
  header: ReactNode;
  errorText: (error: PdfOpenError) => string;
  onOpened?: () => void;
  children: (source: PdfSource, firstPage: PdfPage) => ReactNode;
}) {
  const { state, retry } = usePdf(openPdf, url);
  const opened = useRef(false);
  useEffect(() => {
    if (state.status !== "ready" || opened.current) return;
    opened.current = true;
    onOpened?.();
  }, [state.status, onOpened]);

  if (state.status === "ready") return children(state.source, state.firstPage);
  return (
    <section aria-label="Document reader" className="grid gap-4 rounded-lg border bg-card p-4">
      {header}
      {state.status === "loading" ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Loader2 className="size-4 animate-spin" aria-hidden />
          Opening the document…
        </p>
      ) : (
        <LoadError message={errorText(state.error)} onRetry={retry} />
      )}
    </section>
  );
}

/** A paper the reader cannot show (not a PDF): a sentence and the way to download it. */
export function NotReadable({ header, download }: { header: ReactNode; download: string }) {
  return (
    <section aria-label="Document reader" className="grid justify-items-start gap-3 rounded-lg border bg-card p-4">
      {header}
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <FileWarning className="size-4" aria-hidden />
        Only PDFs open in the reader.{" "}
        <a href={download} download className="font-medium text-primary underline-offset-4 hover:underline">
          Download the file
        </a>
      </p>
    </section>
  );
}
