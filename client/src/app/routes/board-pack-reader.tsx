import { useParams, useSearch } from "wouter";
import { LoadError } from "@/components/load-error";
import { ApiError } from "@/lib/api-client";
import { useAgendaPapers } from "@/app/agenda-papers";
import { useDocument } from "@/features/documents/api/get-document";
import { useLibrary } from "@/features/documents/api/get-library";
import { isMeetingDocument, toMeetingSummary } from "@/features/meetings/lib/listed-meeting";
import { PackReader } from "@/features/reader/components/pack-reader";
import { numberParam } from "@/features/reader/lib/address";

/**
 * /meetings/:id/pack: the meeting's board pack in the reader, at `?page=`, with its papers changed since the reader read
 * them (the meeting page's agenda and library, already held when the pack is opened from there).
 */
export function BoardPackReaderPage() {
  const params = useParams<{ id: string }>();
  const page = numberParam(new URLSearchParams(useSearch()).get("page"), 100_000) ?? 1;
  const id = numberParam(params.id, 999_999_999);
  const meeting = useDocument(id);
  const papers = useAgendaPapers(id, useLibrary().data);

  const missing = meeting.isError && meeting.error instanceof ApiError && meeting.error.status === 404;
  if (id == null || missing || (meeting.data && !isMeetingDocument(meeting.data))) return <p role="alert">Meeting not found.</p>;
  if (meeting.isError) return <LoadError message="The meeting could not be loaded." onRetry={() => void meeting.refetch()} />;
  if (meeting.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading the meeting…
      </p>
    );
  }
  return <PackReader key={id} meetingId={id} meetingTitle={toMeetingSummary(meeting.data).title} papers={papers} initialPage={page} />;
}
