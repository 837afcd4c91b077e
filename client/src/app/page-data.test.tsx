import { act, screen, waitFor } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as complianceApi from "@shared/api/compliance";
import * as documentsApi from "@shared/api/documents";
import * as meetingRecordApi from "@shared/api/meeting-record";
import * as meetingsApi from "@shared/api/meetings";
import * as notificationsApi from "@shared/api/notifications";
import * as resolutionsApi from "@shared/api/resolutions";
import { preloadSignedInApp } from "@/app/router";
import { startPage } from "@/app/page-data";
import { apiUrl } from "@/lib/api-client";
import { createQueryClient } from "@/lib/query-client";
import { setAuthToken } from "@/lib/auth-token";
import { EARLY_READS } from "@/lib/auth-token-key";
import { buildUser } from "@/testing/factories";
import { signedInHandlers } from "@/testing/handlers";
import { renderApp, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";

const me = buildUser({ id: 7, companyId: 3 });
const ofCompany3 = { params: { companyId: 3 } };
const dashboardReads = [
  apiUrl(complianceApi.getCompliance, ofCompany3),
  apiUrl(resolutionsApi.pendingResolutions, ofCompany3),
  apiUrl(meetingsApi.upcomingMeetings, ofCompany3),
  apiUrl(documentsApi.recentDocuments, ofCompany3),
];
const currentUserRead = apiUrl(authApi.currentUser);

/** Every API path requested from now on, in order. */
function recordRequests(): string[] {
  const paths: string[] = [];
  server.events.on("request:start", ({ request }) => {
    paths.push(new URL(request.url).pathname);
  });
  return paths;
}

const holder = window as unknown as Record<string, unknown>;

afterEach(() => {
  server.events.removeAllListeners();
  delete holder[EARLY_READS];
});

/** What the preload script leaves when it has asked for the dashboard's reads with `token`. */
function preloadScriptAsked(token: string) {
  const responses = Object.fromEntries(
    dashboardReads.map((path) => [path, fetch(path, { headers: { Authorization: `Bearer ${token}` } })]),
  );
  holder[EARLY_READS] = { token, responses: Promise.resolve(responses) };
}

describe("a first load with a token stored", () => {
  it("asks for the user, then the dashboard's four reads, before the page renders; the page reads none of them again", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(me));
    const requests = recordRequests();
    const queryClient = createQueryClient();
    window.history.replaceState(null, "", "/");
    preloadSignedInApp(queryClient);
    await waitFor(() => expect(requests).toEqual(expect.arrayContaining(dashboardReads)));
    expect(requests[0]).toBe(currentUserRead);

    renderApp({ path: "/", signedInAs: me, queryClient });
    await screen.findByRole("region", { name: "Compliance Reminders" });
    for (const path of [currentUserRead, ...dashboardReads]) expect(requests.filter((requested) => requested === path)).toHaveLength(1);
  });

  it("asks for the frame's reads the first screen can do without only once that screen is painted", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(me));
    const requests = recordRequests();
    // The frame the first screen is painted in, held until the test lets it go.
    const frames: FrameRequestCallback[] = [];
    const requestFrame = vi.spyOn(window, "requestAnimationFrame").mockImplementation((callback) => frames.push(callback));
    const queryClient = createQueryClient();
    window.history.replaceState(null, "", "/");
    preloadSignedInApp(queryClient);

    renderApp({ path: "/", signedInAs: me, queryClient });
    await screen.findByRole("region", { name: "Compliance Reminders" });
    const later = [
      apiUrl(notificationsApi.listNotifications),
      apiUrl(authApi.checkPlatformAdmin),
      apiUrl(accountApi.getPreferences, { params: { id: 7 } }),
      apiUrl(meetingRecordApi.companyActionItems, { ...ofCompany3, query: {} }),
    ];
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(requests.filter((path) => later.includes(path))).toEqual([]);

    requestFrame.mockRestore();
    await act(async () => {
      for (const frame of frames.splice(0)) frame(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    await waitFor(() => expect(requests).toEqual(expect.arrayContaining(later)));
    // What those answers start (the platform-admin check reloads the companies) settles before the test ends.
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it("takes the preload script's answers to the dashboard's reads instead of asking again", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(me));
    const requests = recordRequests();
    preloadScriptAsked(TEST_TOKEN);
    const queryClient = createQueryClient();
    window.history.replaceState(null, "", "/");
    preloadSignedInApp(queryClient);
    expect(holder[EARLY_READS]).toBe(false);

    renderApp({ path: "/", signedInAs: me, queryClient });
    await screen.findByRole("region", { name: "Compliance Reminders" });
    for (const path of dashboardReads) expect(requests.filter((requested) => requested === path)).toHaveLength(1);
  });

  it("asks again when the preload script sent the reads with another token", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(me));
    const requests = recordRequests();
    preloadScriptAsked("a-token-since-replaced");
    const queryClient = createQueryClient();
    window.history.replaceState(null, "", "/");
    preloadSignedInApp(queryClient);

    renderApp({ path: "/", signedInAs: me, queryClient });
    await screen.findByRole("region", { name: "Compliance Reminders" });
    for (const path of dashboardReads) expect(requests.filter((requested) => requested === path)).toHaveLength(2);
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
