import { useMemo } from "react";
import { meetingCategory } from "@shared/meeting-model";
import { formatLongDate } from "@/lib/format";
import { useCompanies } from "@/features/companies/api/get-companies";
import { useDocuments } from "@/features/documents/api/get-documents";
import { meetingsFromDocuments } from "@/features/meetings/lib/listed-meeting";
import { SearchPageView } from "@/features/search/components/search-page";
import { searchResultHref, useOpenSearchResult } from "@/app/search-results";

/** /search: the search page, its meeting filter fed by the company's meetings (newest first). */
export function SearchPage() {
  const meetings = useDocuments({ category: meetingCategory, select: meetingsFromDocuments });
  const companies = useCompanies();
  const openResult = useOpenSearchResult();
  const choices = useMemo(
    () =>
      [...(meetings.data ?? [])]
        .sort((a, b) => b.date.getTime() - a.date.getTime())
        .map((meeting) => ({ id: meeting.id, label: `${meeting.title} (${formatLongDate(meeting.date)})` })),
    [meetings.data],
  );
  return (
    <SearchPageView
      meetings={choices}
      hrefOf={searchResultHref}
      onOpenResult={(result, href) => void openResult(result, href)}
      manyBoards={(companies.data?.length ?? 0) > 1}
    />
  );
}
