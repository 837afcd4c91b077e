import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import * as authApi from "@shared/api/auth";
import * as companiesApi from "@shared/api/companies";
import * as documentsApi from "@shared/api/documents";
import * as meetingsApi from "@shared/api/meetings";
import { apiUrl } from "@/lib/api-client";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { setAuthToken } from "@/lib/auth-token";
import { createQueryClient } from "@/lib/query-client";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { server } from "@/testing/server";
import { useCompanies } from "@/features/companies/api/get-companies";
import { companySettingsQueryOptions } from "@/features/companies/api/get-company-settings";
import { membersQueryOptions } from "@/features/companies/api/get-members";
import { useSwitchCompany } from "@/features/companies/api/switch-company";
import { documentQueryOptions } from "@/features/documents/api/get-document";
import { documentsQueryOptions } from "@/features/documents/api/get-documents";
import { upcomingMeetingsQueryOptions } from "@/features/meetings/api/get-upcoming-meetings";
import { useNotifications } from "@/features/notifications/api/get-notifications";

/** Counts the GETs per path (a document's read, the members' list...). */
function countGets() {
  const counts: Record<string, number> = {};
  server.events.on("request:start", ({ request }) => {
    if (request.method !== "GET") return;
    const path = new URL(request.url).pathname;
    counts[path] = (counts[path] ?? 0) + 1;
  });
  return counts;
}

// A company switch reaches across features (every feature's company-scoped keys), so the app tests it.
describe("useSwitchCompany", () => {
  afterEach(() => server.events.removeAllListeners());

  it("refetches the user and every company-scoped query on screen, and nothing else", async () => {
    const user = buildUser({ id: 1, companyId: 1 });
    setAuthToken("t");
    server.use(
      handle(authApi.currentUser, () => user),
      handle(documentsApi.getDocument, () => apiError(404, "Not found"), { params: { id: 9 } }),
      handle(companiesApi.switchActiveCompany, () => ({ ...user, companyId: 2 }), { params: { id: 1 } }),
    );
    const counts = countGets();
    const queryClient = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;

    // The company stays 1 in the keys here (the features' hooks would follow the switched user to company 2),
    // so each query refetches only if the switch invalidates it.
    const { result } = renderHook(
      () => {
        const queries = [
          useQuery(companySettingsQueryOptions(1)),
          useQuery(membersQueryOptions(1)),
          useQuery(documentsQueryOptions(1)),
          useQuery(documentQueryOptions(1, 9)),
          useQuery(upcomingMeetingsQueryOptions(1)),
          useCompanies(),
          useNotifications(),
        ];
        return { queries, user: useCurrentUser(), admin: useIsPlatformAdmin(), switchCompany: useSwitchCompany() };
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.queries.every((query) => !query.isFetching && !query.isPending)).toBe(true));
    await waitFor(() => expect(result.current.user.user).not.toBeNull());
    await waitFor(() => expect(result.current.admin.isPending).toBe(false));
    const before = { ...counts };

    await act(() => result.current.switchCompany.mutateAsync({ userId: 1, companyId: 2 }));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    const refetched = Object.keys(counts)
      .filter((path) => counts[path] !== before[path])
      .sort();
    expect(refetched).toEqual(
      [
        apiUrl(authApi.currentUser),
        apiUrl(meetingsApi.upcomingMeetings, { params: { companyId: 1 } }),
        apiUrl(companiesApi.listMembers, { params: { companyId: 1 } }),
        apiUrl(companiesApi.getCompanySettings, { params: { companyId: 1 } }),
        apiUrl(documentsApi.listDocuments, { query: {} }),
        apiUrl(documentsApi.getDocument, { params: { id: 9 } }),
      ].sort(),
    );
    expect(result.current.user.user?.companyId).toBe(1); // the refetched user (the fake server still says 1)
  });
});
