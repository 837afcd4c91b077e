import { screen, waitFor } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import * as platformApi from "@shared/api/platform";
import { preloadPage, signedInRoutes } from "@/app/route-table";
import { signedInPaths } from "@/app/signed-out-routes";
import { setAuthToken } from "@/lib/auth-token";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";

describe("signed out", () => {
  it("knows every signed-in address, in the route table's order", () => {
    expect(signedInRoutes.map(({ path }) => path)).toEqual([...signedInPaths]);
  });

  it("starts downloading the page at an address with an id (an e-mailed /meetings/12), and no other page", () => {
    const preloads = signedInRoutes.map((route) => vi.spyOn(route.page, "preload").mockImplementation(() => undefined));
    preloadPage("/meetings/12");
    const meetingPage = signedInRoutes.findIndex((route) => route.path === "/meetings/:id");
    const calls = preloads.map((preload) => preload.mock.calls.length);
    vi.restoreAllMocks();
    expect(calls).toEqual(signedInRoutes.map((_, index) => (index === meetingPage ? 1 : 0)));
  });

  it("shows sign-in at / without asking for the user when no token is stored", async () => {
    let userRequests = 0;
    server.use(
      handle(authApi.currentUser, () => {
        userRequests += 1;
        return buildUser();
      }),
    );
    renderApp({ path: "/" });
    expect(await screen.findByRole("heading", { level: 1, name: "Sign in" })).toBeInTheDocument();
    expect(screen.getByLabelText("Username")).toBeInTheDocument();
    expect(userRequests).toBe(0);
  });

  it("shows registration at /register", async () => {
    renderApp({ path: "/register" });
    expect(await screen.findByRole("button", { name: "Create account" })).toBeInTheDocument();
  });

  it("shows the 404 page for a path that is no route", async () => {
    renderApp({ path: "/no-such-page" });
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
    expect(screen.getByText("Did you forget to add the page to the router?")).toBeInTheDocument();
    expect(screen.queryByLabelText("Username")).not.toBeInTheDocument();
  });

  it("shows sign-in, in place, on a signed-in route such as /meetings/5", async () => {
    const { currentPath } = renderApp({ path: "/meetings/5" });
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(screen.queryByText("404 Page Not Found")).not.toBeInTheDocument();
    expect(currentPath()).toBe("/meetings/5");
  });

  it("sends /platform-settings to /", async () => {
    const { currentPath } = renderApp({ path: "/platform-settings" });
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(currentPath()).toBe("/");
  });
});

describe("the current user", () => {
  it("shows a plain 'Loading' while the user is requested", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      handle(authApi.currentUser, async () => {
        await released;
        return buildUser();
      }),
    );
    setAuthToken(TEST_TOKEN);
    renderApp({ path: "/" });

    expect(screen.getByRole("status")).toHaveTextContent(/^Loading$/);
    expect(screen.queryByRole("button", { name: "Sign in" })).not.toBeInTheDocument();
    release();
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
  });

  it("counts a 401 as no user and forgets the stale token", async () => {
    setAuthToken("expired");
    renderApp({ path: "/documents" });
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull());
  });

  it("counts any other failure as no user", async () => {
    server.use(handle(authApi.currentUser, () => apiError(500, "Internal error")));
    setAuthToken(TEST_TOKEN);
    renderApp({ path: "/" });
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
  });
});

describe("signed in", () => {
  it.each([
    ["/", "Dashboard"],
    ["/dashboard", "Dashboard"],
    ["/meetings", "Board Meetings"],
    ["/meetings/5", "Meeting not found"],
    ["/documents", "Documents"],
    ["/resolutions", "Board Resolutions"],
    ["/resolutions/9", "Board Resolutions"],
    ["/board-members", "Board Members"],
    ["/search", "Search"],
    ["/company-settings", "Company Settings"],
    ["/settings", "Settings"],
    ["/company-onboarding", "Set up your company"],
    ["/admin-portal", "Admin Portal"],
  ])("%s shows %s", async (path, title) => {
    renderApp({ path, signedInAs: buildUser() });
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
  });

  // The platform pages open for platform admins only (their own page tests cover everyone else).
  it.each([
    ["/admin-settings", "Admin Settings"],
    ["/platform-settings", "Platform Settings"],
  ])("%s shows %s to a platform admin", async (path, title) => {
    server.use(handle(platformApi.listServices, () => []));
    renderApp({ path, signedInAs: buildUser({ isPlatformAdmin: true }) });
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeInTheDocument();
  });

  it("sends /register to /", async () => {
    const { currentPath } = renderApp({ path: "/register", signedInAs: buildUser() });
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(currentPath()).toBe("/");
  });

  it("sends a user without a company from / to /company-onboarding", async () => {
    const { currentPath } = renderApp({ path: "/", signedInAs: buildUser({ companyId: null, role: null }) });
    expect(await screen.findByRole("heading", { level: 1, name: "Set up your company" })).toBeInTheDocument();
    expect(currentPath()).toBe("/company-onboarding");
  });

  it("shows the 404 page inside the app for a path that is no route", async () => {
    renderApp({ path: "/nowhere", signedInAs: buildUser() });
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
    expect(screen.getByRole("navigation", { name: "Main" })).toBeInTheDocument();
  });
});
