import { useEffect, useState } from "react";
import { getAuthToken } from "@/lib/auth-token";
import { PdfOpenError, type PdfOpener, type PdfPage, type PdfSource } from "@/features/reader/lib/pdf-source";

export type PdfState =
  { status: "loading" } | { status: "ready"; source: PdfSource; firstPage: PdfPage } | { status: "error"; error: PdfOpenError };

/**
 * The PDF at `url`, opened with `open`, and its first page (whose size lays out the pages not yet drawn). Closed
 * when the reader leaves it. `retry` opens it again.
 */
export function usePdf(open: PdfOpener, url: string) {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<PdfState & { key: string }>({ status: "loading", key: "" });
  const key = `${url}#${attempt}`;

  useEffect(() => {
    let live = true;
    let source: PdfSource | undefined;
    const opening = open({ url, token: getAuthToken() });
    opening.promise
      .then(async (opened) => {
        source = opened;
        const firstPage = await opened.page(1);
        if (live) setState({ status: "ready", source: opened, firstPage, key });
      })
      .catch((error: unknown) => {
        if (!live) return;
        const failure = error instanceof PdfOpenError ? error : new PdfOpenError(String(error), null);
        setState({ status: "error", error: failure, key });
      });
    return () => {
      live = false;
      opening.cancel();
      source?.close();
    };
  }, [open, url, key]);

  // Until the effect of this address and attempt answers, the previous state is not this PDF's.
  const current: PdfState = state.key === key ? state : { status: "loading" };
  return { state: current, retry: () => setAttempt((count) => count + 1) };
}
