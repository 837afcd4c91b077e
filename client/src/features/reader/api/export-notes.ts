import * as api from "@shared/api/reading";
import type { noteExportFormats } from "@shared/paper-reading";
import { apiRequest, apiUrl } from "@/lib/api-client";

export type NoteExportFormat = (typeof noteExportFormats)[number];

/** GET /api/meetings/:id/notes/export: the caller's notes on the meeting's papers, as a file, with its name if given. */
export async function fetchNotesExport(meetingId: number, format: NoteExportFormat): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await apiRequest(api.exportNotes.method, apiUrl(api.exportNotes, { params: { id: meetingId }, query: { format } }));
  return { blob: await response.blob(), fileName: fileNameOf(response.headers.get("Content-Disposition")) };
}

/** The plain `filename` of a Content-Disposition (`filename*` first), without characters a file system refuses. */
function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header);
  let name: string | undefined;
  try {
    name = extended ? decodeURIComponent(extended[1]!.trim()) : undefined;
  } catch {
    name = undefined;
  }
  name ??= /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1];
  // eslint-disable-next-line no-control-regex
  const cleaned = name?.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, " ").trim();
  return cleaned || null;
}
