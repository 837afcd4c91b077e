import { screen, waitFor } from "@testing-library/react";
import { preloadSignedInApp } from "@/app/router";
import { startPage } from "@/app/page-data";
import { createQueryClient } from "@/lib/query-client";
import { setAuthToken } from "@/lib/auth-token";
import { buildUser } from "@/testing/factories";
import { signedInHandlers } from "@/testing/handlers";
import { renderApp, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";

const me = buildUser({ id: 7, companyId: 3 });
const dashboardReads = [
  "/api/companies/3/compliance",
  "/api/companies/3/resolutions/pending",
  "/api/companies/3/meetings/upcoming",
  "/api/companies/3/documents/recent",
];

/** Every API path requested from now on, in order. */
function recordRequests(): string[] {
  const paths: string[] = [];
  server.events.on("request:start", ({ request }) => {
    paths.push(new URL(request.url).pathname);
  });
  return paths;
}

afterEach(() => server.events.removeAllListeners());

describe("a first load with a token stored", () => {
  it("asks for the user, then the dashboard's four reads, before the page renders; the page reads none of them again", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(me));
    const requests = recordRequests();
    const queryClient = createQueryClient();
    window.history.replaceState(null, "", "/");
    preloadSignedInApp(queryClient);
    await waitFor(() => expect(requests).toEqual(expect.arrayContaining(dashboardReads)));
    expect(requests[0]).toBe("/api/auth/user");

    renderApp({ path: "/", signedInAs: me, queryClient });
    await screen.findByRole("region", { name: "Compliance Reminders" });
    for (const path of ["/api/auth/user", ...dashboardReads]) expect(requests.filter((requested) => requested === path)).toHaveLength(1);
  });

  it("starts no page reads without a company, nor for a page that reads as it renders", async () => {
    server.use(...signedInHandlers(me));
    const requests = recordRequests();
    const queryClient = createQueryClient();
    const withoutCompany = Promise.resolve(buildUser({ id: 9, companyId: null }));
    const onMeetings = Promise.resolve(me);
    startPage(queryClient, "/", withoutCompany);
    startPage(queryClient, "/meetings", onMeetings);
    // startPage reacts to the user in a callback registered before this await's, so it has run once the await returns;
    // every read it could start goes through the query client, whose cache would then hold it.
    await Promise.all([withoutCompany, onMeetings]);
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(requests).toEqual([]);
  });
});
