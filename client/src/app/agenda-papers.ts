import { useMemo } from "react";
import type { LibraryDocument } from "@shared/documents";
import { useAgenda } from "@/features/meetings/api/get-agenda";

/**
 * A meeting's agenda papers the viewer may see (the library lists them, with whether each changed since the viewer
 * read it), each once, in agenda order: the meeting page's and the pack reader's, from the same two queries. None
 * without a meeting (`meetingId` null: an address that names none).
 */
export function useAgendaPapers(meetingId: number | null, library: readonly LibraryDocument[] | undefined): LibraryDocument[] {
  const agenda = useAgenda(meetingId ?? 0, { enabled: meetingId != null });
  return useMemo(() => {
    const byId = new Map((library ?? []).map((document) => [document.id, document]));
    const ids = [...new Set((agenda.data?.items ?? []).flatMap((item) => item.documentIds))];
    return ids.flatMap((id) => byId.get(id) ?? []);
  }, [agenda.data, library]);
}
