import { act, screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import type { User } from "@shared/auth";
import { AppRouter } from "@/app/router";
import { authKeys } from "@/lib/auth/auth-keys";
import { setAuthToken } from "@/lib/auth-token";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildUser } from "@/testing/factories";
import { apiError, handle, type FakeAnswer } from "@/testing/handle";
import { renderApp, renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";

/**
 * The phone-layout query, answered by the test (wide unless a test says otherwise): installed before any test, since
 * the app keeps the first list it gets for a query.
 */
const narrowQuery = "(width < 48rem)";
const narrowList = {
  matches: false,
  media: narrowQuery,
  listeners: new Set<() => void>(),
  addEventListener(_type: string, listener: () => void) {
    this.listeners.add(listener);
  },
  removeEventListener(_type: string, listener: () => void) {
    this.listeners.delete(listener);
  },
};
const originalMatchMedia = window.matchMedia;
beforeAll(() => {
  window.matchMedia = ((query: string) => (query === narrowQuery ? narrowList : originalMatchMedia(query))) as typeof window.matchMedia;
});
afterEach(() => {
  narrowList.matches = false;
});
afterAll(() => {
  window.matchMedia = originalMatchMedia;
});

function setNarrow(matches: boolean) {
  narrowList.matches = matches;
  act(() => narrowList.listeners.forEach((listener) => listener()));
}

async function renderSignedIn(user: User, { path = "/", isPlatformAdmin }: { path?: string; isPlatformAdmin?: boolean } = {}) {
  const view = renderApp({ path, signedInAs: user, isPlatformAdmin });
  const sidebar = await screen.findByRole("navigation", { name: "Main" });
  return { ...view, sidebar };
}

const navLabels = (nav: HTMLElement) =>
  within(nav)
    .getAllByRole("link")
    .map((link) => link.textContent);

describe("sidebar", () => {
  it.each([
    ["founder", true],
    ["admin", true],
    ["member", false],
    ["observer", false],
  ] as const)("Company Settings for a %s: %s", async (role, shown) => {
    const { sidebar } = await renderSignedIn(buildUser({ role }));
    // Wait for the platform-admin check to settle so a late entry cannot slip in after the assertion.
    await waitFor(() => expect(navLabels(sidebar)).toContain("Board Members"));
    expect(navLabels(sidebar).includes("Company Settings")).toBe(shown);
  });

  it("lists the main entries and, for a member, nothing more", async () => {
    const { sidebar, queryClient } = await renderSignedIn(buildUser({ role: "member" }));
    await waitFor(() => expect(queryClient.getQueryState(authKeys.platformAdmin())?.status).toBe("success"));
    expect(navLabels(sidebar)).toEqual(["Dashboard", "Meetings", "Documents", "Resolutions", "Board Members"]);
  });

  it("shows Platform Settings, linking to /admin-settings, once the server confirms a platform admin", async () => {
    const { sidebar } = await renderSignedIn(buildUser({ role: "member" }), { isPlatformAdmin: true });
    const link = await within(sidebar).findByRole("link", { name: "Platform Settings" });
    expect(link).toHaveAttribute("href", "/admin-settings");
  });

  it("hides Platform Settings when the check fails, whatever the user object says", async () => {
    setAuthToken(TEST_TOKEN);
    server.use(
      handle(authApi.currentUser, () => buildUser({ isPlatformAdmin: true })),
      handle(authApi.checkPlatformAdmin, () => apiError(500, "Internal error")),
    );
    const { queryClient } = renderWithProviders(<AppRouter />);
    const sidebar = await screen.findByRole("navigation", { name: "Main" });
    await waitFor(() => expect(queryClient.getQueryState(authKeys.platformAdmin())?.status).toBe("success"));
    expect(queryClient.getQueryData(authKeys.platformAdmin())).toBe(false);
    expect(within(sidebar).queryByRole("link", { name: "Platform Settings" })).not.toBeInTheDocument();
  });

  it("marks the active route with aria-current", async () => {
    const { sidebar } = await renderSignedIn(buildUser(), { path: "/meetings/5" });
    expect(within(sidebar).getByRole("link", { name: "Meetings" })).toHaveAttribute("aria-current", "page");
    expect(within(sidebar).getByRole("link", { name: "Dashboard" })).not.toHaveAttribute("aria-current");
  });

  it("shows the user's name, role label and initial", async () => {
    await renderSignedIn(buildUser({ firstName: "Grace", lastName: "Hopper", role: "member" }));
    const block = screen.getByTestId("user-block");
    expect(within(block).getByText("Grace Hopper")).toBeInTheDocument();
    expect(within(block).getByText("Board Member")).toBeInTheDocument();
    expect(within(block).getByText("G")).toBeInTheDocument();
  });

  it("has Settings and Logout at the bottom", async () => {
    await renderSignedIn(buildUser());
    const account = screen.getByRole("list", { name: "Account" });
    expect(within(account).getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/settings");
    expect(within(account).getByRole("button", { name: "Logout" })).toBeInTheDocument();
  });
});

describe("the sidebar on a narrow screen", () => {
  it("is not rendered there", async () => {
    narrowList.matches = true;
    renderApp({ signedInAs: buildUser() });
    await screen.findByTestId("header-title");
    expect(screen.queryByRole("complementary", { name: "Sidebar", hidden: true })).not.toBeInTheDocument();
  });

  it("stays the same element when the query flips for a moment, so nothing open in it closes", async () => {
    renderApp({ signedInAs: buildUser() });
    const sidebar = await screen.findByRole("complementary", { name: "Sidebar" });
    setNarrow(true);
    setNarrow(false);
    expect(screen.getByRole("complementary", { name: "Sidebar" })).toBe(sidebar);
  });
});

describe("mobile menu", () => {
  it("lists exactly Dashboard, Meetings, Documents, Resolutions, Board Members, Settings and Logout", async () => {
    const { user } = await renderSignedIn(buildUser({ role: "founder" }), { isPlatformAdmin: true });
    await user.click(screen.getByRole("button", { name: "Open menu" }));

    const dialog = await screen.findByRole("dialog", { name: /Quorum/ });
    const entries = within(within(dialog).getByRole("navigation")).getAllByRole("listitem");
    expect(entries.map((entry) => entry.textContent)).toEqual([
      "Dashboard",
      "Meetings",
      "Documents",
      "Resolutions",
      "Board Members",
      "Settings",
      "Logout",
    ]);
  });

  it("closes when an entry is chosen", async () => {
    const { user, currentPath } = await renderSignedIn(buildUser());
    await user.click(screen.getByRole("button", { name: "Open menu" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("link", { name: "Documents" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(currentPath()).toBe("/documents");
    expect(await screen.findByRole("heading", { level: 1, name: "Documents" })).toBeInTheDocument();
  });
});

describe("header", () => {
  it.each([
    ["/", "Dashboard"],
    ["/meetings/3", "Meetings"],
    ["/documents", "Documents"],
    ["/resolutions/4", "Resolutions"],
    ["/board-members", "Board Members"],
    ["/settings", "Settings"],
    ["/company-settings", "Quorum"],
    ["/admin-portal", "Quorum"],
  ])("titles %s as %s", async (path, title) => {
    await renderSignedIn(buildUser(), { path });
    expect(screen.getByTestId("header-title")).toHaveTextContent(title);
  });
});

describe("logout", () => {
  it.each([
    ["answers 204", () => {}],
    ["fails", () => apiError(500, "Internal error")],
  ] satisfies [string, () => FakeAnswer<typeof authApi.logout>][])(
    "clears the token and the cache and returns to / when the server %s",
    async (_label, respond) => {
      let logoutCalls = 0;
      let authorization: string | null = null;
      server.use(
        handle(authApi.logout, ({ request }) => {
          logoutCalls += 1;
          authorization = request.headers.get("authorization");
          return respond();
        }),
      );
      const signedIn = buildUser();
      const { user, queryClient, currentPath } = await renderSignedIn(signedIn, { path: "/documents" });
      expect(queryClient.getQueryData(authKeys.user())).toEqual(signedIn);

      await user.click(within(screen.getByRole("list", { name: "Account" })).getByRole("button", { name: "Logout" }));

      expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
      expect(logoutCalls).toBe(1);
      expect(authorization).toBe("Bearer test-session-token");
      expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
      // Nothing cached survives (a still-mounted observer may re-create an empty entry for its key).
      expect(
        queryClient
          .getQueryCache()
          .getAll()
          .filter((query) => query.state.data !== undefined),
      ).toEqual([]);
      expect(queryClient.getQueryData(authKeys.user())).toBeUndefined();
      expect(currentPath()).toBe("/");
    },
  );

  it("works from the mobile menu", async () => {
    server.use(handle(authApi.logout, () => {}));
    const { user, currentPath } = await renderSignedIn(buildUser(), { path: "/meetings" });
    await user.click(screen.getByRole("button", { name: "Open menu" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Logout" }));

    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInTheDocument();
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(currentPath()).toBe("/");
  });
});
