import { useParams } from "wouter";
import { ApiError } from "@/lib/api-client";
import { useNow } from "@/lib/use-now";
import { useDocument } from "@/features/documents/api/get-document";
import { MeetingDetail, MeetingDetailLoading, MeetingLoadError, MeetingNotFound } from "@/features/meetings/components/meeting-detail";
import { isMeetingDocument, toMeetingSummary } from "@/features/meetings/lib/listed-meeting";

/** /meetings/:id. A missing id, another company's meeting (404) or a document that is no meeting: 'Meeting not found'. */
export function MeetingDetailPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d{1,9}$/.test(params.id ?? "") ? Number(params.id) : null;
  const document = useDocument(id);
  const now = useNow();

  if (id == null) return <MeetingNotFound />;
  if (document.isPending) return <MeetingDetailLoading />;
  if (document.isError) {
    return document.error instanceof ApiError && document.error.status === 404 ? (
      <MeetingNotFound />
    ) : (
      <MeetingLoadError onRetry={() => void document.refetch()} />
    );
  }
  if (!isMeetingDocument(document.data)) return <MeetingNotFound />;
  return <MeetingDetail meeting={toMeetingSummary(document.data)} now={now} />;
}
