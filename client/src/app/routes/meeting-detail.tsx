import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useCallback, useDeferredValue, useMemo, useState } from "react";
import { useLocation, useParams } from "wouter";
import type { DocumentObject, LibraryDocument } from "@shared/documents";
import { MeetingPage, type MeetingRecordEffects } from "@/app/meeting-page";
import { ApiError } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";
import { useNow } from "@/lib/use-now";
import { useCompanySettings } from "@/features/companies/api/get-company-settings";
import { useMembers } from "@/features/companies/api/get-members";
import { documentKeys } from "@/features/documents/api/document-keys";
import { useDocument } from "@/features/documents/api/get-document";
import { useLibrary } from "@/features/documents/api/get-library";
import { readerHref } from "@/features/documents/api/versions";
import { meetingKeys } from "@/features/meetings/api/meeting-keys";
import { MeetingDetailLoading, MeetingLoadError, MeetingNotFound } from "@/features/meetings/components/meeting-page-states";
import { isMeetingDocument, toMeetingSummary } from "@/features/meetings/lib/listed-meeting";
import type { MeetingSources } from "@/features/meetings/lib/meeting-sources";
import { useResolutions } from "@/features/resolutions/api/get-resolutions";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

// The papers' preview loads when a paper is first opened: it brings the documents' schemas, which the page needs not.
// WhenLoaded draws it as soon as its code is here, where a Suspense boundary would hold it back until 300 ms after its
// fallback showed. Only the dialog is handed on: loadOnDemand would read its props from every export of the module.
const DocumentPreviewDialog = loadOnDemand(
  () =>
    import("@/features/documents/components/document-preview-dialog").then((module) => ({
      DocumentPreviewDialog: module.DocumentPreviewDialog,
    })),
  "DocumentPreviewDialog",
);

/**
 * /meetings/:id. A missing id, another company's meeting (404) or a document that is no meeting: 'Meeting not found'.
 * The page hands the meeting the company's members (companies), its library and the papers' preview (documents)
 * and its resolutions (resolutions), and refreshes the meeting's document when the meeting changes. When its record
 * (meeting-record) changes what other features show, it refreshes those: the document, the upcoming meetings and
 * the agenda after a confirm, reschedule or cancel; the agenda, resolutions and library after a show of hands; the
 * resolutions and library after approved minutes.
 */
export function MeetingDetailPage() {
  const params = useParams<{ id: string }>();
  const id = /^\d{1,9}$/.test(params.id ?? "") ? Number(params.id) : null;
  const document = useDocument(id);
  const now = useNow();
  const sources = useMeetingSources();
  const effects = useRecordEffects(sources.value.onMeetingChanged);
  const settings = useCompanySettings();
  // Each read that lands re-renders this page at once (the query library's updates cannot wait). The meeting is drawn
  // from deferred copies instead, which React renders in slices the browser can interleave with its own work.
  const shown = useDeferredValue(document.data);
  const shownSources = useDeferredValue(sources.value);
  const readReceipts = useDeferredValue(settings.data?.company.readReceipts);
  const meeting = useMemo(() => (shown && isMeetingDocument(shown) ? toMeetingSummary(shown) : null), [shown]);

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
  // The deferred copy has not caught up with a meeting just loaded.
  if (!meeting || shown?.id !== document.data.id) return <MeetingDetailLoading />;
  return (
    <>
      <MeetingPage
        meeting={meeting}
        now={now}
        creatorId={shown.uploadedBy}
        sources={shownSources}
        effects={effects}
        readReceipts={readReceipts}
      />
      {sources.previewedOnce && (
        <Suspense fallback={null}>
          <WhenLoaded
            component={DocumentPreviewDialog}
            placeholder={null}
            props={{ document: sources.previewing, onOpenChange: (open) => !open && sources.closePreview() }}
          />
        </Suspense>
      )}
    </>
  );
}

function useMeetingSources() {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  const members = useMembers();
  const library = useLibrary();
  const resolutions = useResolutions();
  const [previewing, setPreviewing] = useState<LibraryDocument | null>(null);
  // Kept mounted once opened, so it closes as a dialog does rather than vanishing.
  const [previewedOnce, setPreviewedOnce] = useState(false);
  const [, navigate] = useLocation();
  // A PDF opens in the reader (notes, search, progress); an image or a text file in the preview.
  const onOpenPaper = useCallback(
    (paper: LibraryDocument) => {
      if (paper.fileType === "application/pdf") {
        navigate(readerHref(paper.id));
        return;
      }
      setPreviewing(paper);
      setPreviewedOnce(true);
    },
    [navigate],
  );

  const onMeetingChanged = useCallback(
    async (meeting?: DocumentObject) => {
      if (meeting) queryClient.setQueryData(documentKeys.detail(companyId, meeting.id), meeting);
      // The meetings list is the documents list; the detail is asked for again too (a saved agenda rewrites its text).
      await queryClient.invalidateQueries({ queryKey: documentKeys.all(companyId) });
    },
    [queryClient, companyId],
  );

  const value = useMemo<MeetingSources>(
    () => ({ members, library, resolutions, onOpenPaper, onMeetingChanged }),
    [members, library, resolutions, onOpenPaper, onMeetingChanged],
  );
  return { value, previewing, previewedOnce, closePreview: () => setPreviewing(null) };
}

/** What the record's changes refresh in the other features' reads. */
function useRecordEffects(onMeetingChanged: MeetingSources["onMeetingChanged"]): MeetingRecordEffects {
  const queryClient = useQueryClient();
  const companyId = useActiveCompany();
  return useMemo(() => {
    const refreshAgenda = (meetingId: number) =>
      queryClient.invalidateQueries({ queryKey: meetingKeys.agenda(companyId, meetingId), exact: true });
    // A show of hands decides a resolution; approved minutes are a new resolution or a PDF in the library.
    const refreshResolutionsAndLibrary = () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: resolutionKeys.all(companyId) }),
        queryClient.invalidateQueries({ queryKey: documentKeys.library(companyId) }),
      ]);
    return {
      onMeetingUpdated: (meeting) =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: meetingKeys.upcoming(meeting.companyId), exact: true }),
          refreshAgenda(meeting.id),
          onMeetingChanged(meeting),
        ]),
      onResolutionDecided: (meetingId) => Promise.all([refreshAgenda(meetingId), refreshResolutionsAndLibrary()]),
      onMinutesApproved: refreshResolutionsAndLibrary,
    };
  }, [queryClient, companyId, onMeetingChanged]);
}
