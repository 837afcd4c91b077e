import { PdfOpenError, type OpeningPdf, type PdfOpener } from "@/features/reader/lib/pdf-source";

/** Opens a PDF with pdf.js, which (with its worker) is downloaded the first time a reader opens, never before. */
export const openWithPdfjs: PdfOpener = (request) => {
  let cancelled = false;
  let inner: OpeningPdf | undefined;
  const promise = import("@/features/reader/lib/pdfjs-source").then(({ openPdfjs }) => {
    if (cancelled) throw new PdfOpenError("Cancelled", null);
    inner = openPdfjs(request);
    return inner.promise;
  });
  return {
    promise,
    cancel: () => {
      cancelled = true;
      inner?.cancel();
    },
  };
};
