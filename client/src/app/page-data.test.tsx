import { act, screen, waitFor } from "@testing-library/react";
import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as companiesApi from "@shared/api/companies";
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
import { buildMeetingDocument, serveMeetingPage } from "@/testing/meeting-fixtures";
import { buildResolution, serve as serveResolutions } from "@/testing/resolution-fixtures";
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

/** What the preload script leaves when it has asked for `reads` (the dashboard's unless told) with `token`. */
function preloadScriptAsked(token: string, reads = dashboardReads) {
  const responses = Object.fromEntries(reads.map((path) => [path, fetch(path, { headers: { Authorization: `Bearer ${token}` } })]));
  holder[EARLY_READS] = { token, responses: Promise.resolve(responses) };
}

/** How often each of `paths` was requested. */
const timesRequested = (requests: string[], paths: string[]) =>
  Object.fromEntries(paths.map((path) => [path, requests.filter((requested) => requested === path).length]));
const once = (paths: string[]) => Object.fromEntries(paths.map((path) => [path, 1]));

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

  it("at an e-mailed meeting's address, asks for the meeting's first reads before the page renders; the page reads none of them again", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(me));
    serveMeetingPage({ meeting: buildMeetingDocument({ id: 60, companyId: 3, title: "Strategy day" }) });
    const requests = recordRequests();
    const queryClient = createQueryClient();
    window.history.replaceState(null, "", "/meetings/60");
    preloadSignedInApp(queryClient);
    const ofMeeting = { params: { id: 60 } };
    const meetingReads = [
      apiUrl(documentsApi.getDocument, ofMeeting),
      apiUrl(meetingsApi.getAgenda, ofMeeting),
      apiUrl(companiesApi.listMembers, ofCompany3),
      apiUrl(documentsApi.listLibrary, ofCompany3),
      apiUrl(resolutionsApi.listResolutions, ofCompany3),
      apiUrl(companiesApi.getCompanySettings, ofCompany3),
    ];
    await waitFor(() => expect(requests).toEqual(expect.arrayContaining(meetingReads)));

    renderApp({ path: "/meetings/60", signedInAs: me, queryClient });
    await screen.findByRole("heading", { level: 1, name: "Strategy day" });
    expect(timesRequested(requests, meetingReads)).toEqual(once(meetingReads));
  });

  it("at a resolution's address, takes the preload script's answers to its reads instead of asking again", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(...signedInHandlers(me));
    serveResolutions([buildResolution({ id: 7, title: "Adopt the accounts", status: "approved" })]);
    const resolutionReads = [
      apiUrl(resolutionsApi.listResolutions, ofCompany3),
      apiUrl(resolutionsApi.getResolution, { params: { id: 7 } }),
    ];
    const requests = recordRequests();
    preloadScriptAsked(TEST_TOKEN, resolutionReads);
    const queryClient = createQueryClient();
    window.history.replaceState(null, "", "/resolutions/7");
    preloadSignedInApp(queryClient);

    renderApp({ path: "/resolutions/7", signedInAs: me, queryClient });
    await screen.findByRole("dialog", { name: "Adopt the accounts" });
    expect(timesRequested(requests, resolutionReads)).toEqual(once(resolutionReads));
  });

  it("starts no page reads without a company, nor for a page that reads as it renders", async () => {
    server.use(...signedInHandlers(me));
    const requests = recordRequests();
    const queryClient = createQueryClient();
    const withoutCompany = Promise.resolve(buildUser({ id: 9, companyId: null }));
    const onSearch = Promise.resolve(me);
    startPage(queryClient, "/", withoutCompany);
    startPage(queryClient, "/search", onSearch);
    // startPage reacts to the user in a callback registered before this await's, so it has run once the await returns;
    // every read it could start goes through the query client, whose cache would then hold it.
    await Promise.all([withoutCompany, onSearch]);
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(requests).toEqual([]);
  });
});
