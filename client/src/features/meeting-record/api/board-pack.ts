import { useState } from "react";
import * as api from "@shared/api/meeting-record";
import { apiRequest, apiUrl } from "@/lib/api-client";
import { fileNameFromContentDisposition, saveFile } from "@/lib/save-file";
import { boardPackFallbackName } from "@/features/meeting-record/lib/board-pack-file";

export interface BoardPackFile {
  blob: Blob;
  /** From the answer's Content-Disposition, or null. */
  fileName: string | null;
}

/**
 * GET /api/meetings/:id/board-pack.pdf with the session (the stored token, and the cookie), read as it
 * arrives so `onProgress` can tell how many bytes have come. The server builds the PDF before it answers,
 * which can take a second or two.
 */
export async function fetchBoardPack(meetingId: number, onProgress: (bytes: number) => void): Promise<BoardPackFile> {
  const response = await apiRequest(api.boardPack.method, apiUrl(api.boardPack, { params: { id: meetingId } }));
  const fileName = fileNameFromContentDisposition(response.headers.get("Content-Disposition"));
  if (!response.body) return { blob: await response.blob(), fileName };

  const reader = response.body.getReader();
  const chunks: BlobPart[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received);
  }
  return { blob: new Blob(chunks, { type: response.headers.get("Content-Type") ?? "application/pdf" }), fileName };
}

/** Where a board pack download is: idle, waiting for the server to build it, or receiving its bytes. */
export type BoardPackProgress = { phase: "idle" } | { phase: "preparing" } | { phase: "receiving"; bytes: number };

/** Downloads a meeting's board pack and saves it; one download at a time. */
export function useBoardPackDownload(meetingId: number, meetingTitle: string) {
  const [progress, setProgress] = useState<BoardPackProgress>({ phase: "idle" });

  async function download(): Promise<void> {
    if (progress.phase !== "idle") return;
    setProgress({ phase: "preparing" });
    try {
      const file = await fetchBoardPack(meetingId, (bytes) => setProgress({ phase: "receiving", bytes }));
      saveFile(file.blob, file.fileName ?? boardPackFallbackName(meetingTitle));
    } finally {
      setProgress({ phase: "idle" });
    }
  }

  return { progress, download };
}
