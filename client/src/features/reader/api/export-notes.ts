import * as api from "@shared/api/reading";
import type { noteExportFormats } from "@shared/paper-reading";
import { apiRequest, apiUrl } from "@/lib/api-client";
import { fileNameFromContentDisposition } from "@/lib/save-file";

export type NoteExportFormat = (typeof noteExportFormats)[number];

/** GET /api/meetings/:id/notes/export: the caller's notes on the meeting's papers, as a file, with its name if given. */
export async function fetchNotesExport(meetingId: number, format: NoteExportFormat): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await apiRequest(api.exportNotes.method, apiUrl(api.exportNotes, { params: { id: meetingId }, query: { format } }));
  return { blob: await response.blob(), fileName: fileNameFromContentDisposition(response.headers.get("Content-Disposition")) };
}
