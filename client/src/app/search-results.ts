import { useCallback } from "react";
import { useLocation } from "wouter";
import type { SearchResult } from "@shared/search";
import { toast } from "@/components/ui/use-toast";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useSwitchCompany } from "@/features/companies/api/switch-company";
import { readerHref } from "@/features/documents/api/versions";
import { MINUTES_SECTION_ID } from "@/features/meeting-record/lib/record-sections";
import { highlightWords } from "@/features/search/lib/query-words";

/**
 * Where a search result opens: a paper in the reader at the page the words were found on, with those words
 * highlighted; minutes at the meeting's minutes; a resolution in its dialog; an agenda item, an action item or a
 * meeting on the meeting's page.
 */
export function searchResultHref(result: SearchResult, query: string): string {
  switch (result.kind) {
    case "document": {
      const address = new URLSearchParams();
      if (result.page != null) address.set("page", String(result.page));
      const words = highlightWords(query, result.snippet);
      if (words.length > 0) address.set("highlight", words.join(" "));
      return `${readerHref(result.id)}?${address}`;
    }
    case "minutes":
      return `/meetings/${result.meetingId ?? result.id}#${MINUTES_SECTION_ID}`;
    case "resolution":
      return `/resolutions/${result.id}`;
    case "meeting":
      return `/meetings/${result.id}`;
    case "agendaItem":
    case "actionItem":
      return result.meetingId != null ? `/meetings/${result.meetingId}` : "/meetings";
  }
}

/**
 * Opens a result. One of another board is opened in that board: the pages read the active company's lists (a
 * resolution is found in its company's list, a meeting's page shows its company's members), so the active company
 * is switched first, as the company switcher does.
 */
export function useOpenSearchResult(): (result: SearchResult, href: string) => Promise<void> {
  const { user } = useCurrentUser();
  const switchCompany = useSwitchCompany();
  const [, navigate] = useLocation();
  const { mutateAsync } = switchCompany;
  return useCallback(
    async (result, href) => {
      if (user && result.companyId !== user.companyId) {
        try {
          await mutateAsync({ userId: user.id, companyId: result.companyId });
        } catch {
          toast({ title: "Error", description: `Could not switch to ${result.companyName}`, variant: "destructive" });
          return;
        }
        toast({ title: "Company changed", description: `Now in ${result.companyName}` });
      }
      navigate(href);
    },
    [user, mutateAsync, navigate],
  );
}
