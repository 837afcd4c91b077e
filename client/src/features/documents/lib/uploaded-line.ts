import { formatLongDate } from "@/lib/format";

/**
 * Who added a document and when: "Uploaded by Ann Lee • May 20, 2026", or "Added on May 20, 2026" when no person is
 * named (Quorum filed it itself, as a written resolution's certificate, or the uploader's account is gone).
 */
export function uploadedLine(document: { uploader: string; createdAt: string }): string {
  const day = formatLongDate(document.createdAt);
  return document.uploader ? `Uploaded by ${document.uploader} • ${day}` : `Added on ${day}`;
}
