import { useParams, useSearch } from "wouter";
import { LoadError } from "@/components/load-error";
import { ApiError } from "@/lib/api-client";
import { useDocument } from "@/features/documents/api/get-document";
import { isMeetingDocument, toMeetingSummary } from "@/features/meetings/lib/listed-meeting";
import { PackReader } from "@/features/reader/components/pack-reader";
import { numberParam } from "@/features/reader/lib/address";

/** /meetings/:id/pack: the meeting's board pack in the reader, at `?page=`. */
export function BoardPackReaderPage() {
  const params = useParams<{ id: string }>();
  const page = numberParam(new URLSearchParams(useSearch()).get("page"), 100_000) ?? 1;
  const id = numberParam(params.id, 999_999_999);
  const meeting = useDocument(id);

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
  return <PackReader key={id} meetingId={id} meetingTitle={toMeetingSummary(meeting.data).title} initialPage={page} />;
}
