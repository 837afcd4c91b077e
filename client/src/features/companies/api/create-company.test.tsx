import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import * as companiesApi from "@shared/api/companies";
import { createQueryClient } from "@/lib/query-client";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { server } from "@/testing/server";
import { authKeys } from "@/lib/auth/auth-keys";
import { useLinkUserToCompany } from "@/features/companies/api/create-company";

describe("useLinkUserToCompany", () => {
  it("caches the answered user and does not mark it stale (no second request for what it just got)", async () => {
    const linked = buildUser({ id: 1, companyId: 7 });
    server.use(handle(companiesApi.linkUserToCompany, () => linked, { params: { id: 1 } }));
    const queryClient = createQueryClient();
    queryClient.setQueryData(authKeys.user(), buildUser({ id: 1, companyId: null }));
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useLinkUserToCompany(), { wrapper });

    await act(() => result.current.mutateAsync({ userId: 1, companyId: 7 }));

    expect(queryClient.getQueryData(authKeys.user())).toEqual(linked);
    expect(queryClient.getQueryState(authKeys.user())?.isInvalidated).toBe(false);
  });
});
