import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import type { AppNotification } from "@/features/account/api/get-notifications";
import { buildUser } from "@/testing/factories";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const notification = (overrides: Partial<AppNotification>): AppNotification => ({
  id: 1,
  title: "Vote on the budget",
  body: "A resolution awaits your vote.",
  link: "/resolutions/7",
  readAt: null,
  createdAt: new Date().toISOString(),
  ...overrides,
});

describe("notifications bell", () => {
  it("says there is nothing new when every notification is read", async () => {
    server.use(http.get("/api/notifications", () => HttpResponse.json([notification({ readAt: new Date().toISOString() })])));
    const { user } = renderApp({ signedInAs: buildUser() });
    await user.click(await screen.findByRole("button", { name: "Notifications" }));
    expect(await screen.findByText("No new notifications")).toBeInTheDocument();
    expect(screen.queryByTestId("notifications-count")).not.toBeInTheDocument();
  });

  it("counts and lists unread notifications; choosing one marks it read and follows its link", async () => {
    const marked: string[] = [];
    server.use(
      http.get("/api/notifications", () =>
        HttpResponse.json([
          notification({ id: 1, title: "Vote on the budget", link: "/resolutions/7" }),
          notification({ id: 2, title: "Meeting moved", link: "/meetings/3" }),
          notification({ id: 3, title: "Old news", readAt: new Date().toISOString() }),
        ]),
      ),
      http.post("/api/notifications/:id/read", ({ params }) => {
        marked.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, currentPath } = renderApp({ signedInAs: buildUser() });
    expect(await screen.findByTestId("notifications-count")).toHaveTextContent("2");

    // The count is part of the button's accessible name, so a screen reader announces it.
    await user.click(screen.getByRole("button", { name: "Notifications, 2 unread" }));
    const menu = await screen.findByRole("menu");
    const items = within(menu).getAllByRole("menuitem");
    expect(items).toHaveLength(2);
    expect(within(menu).queryByText("Old news")).not.toBeInTheDocument();

    await user.click(within(menu).getByText("Meeting moved"));
    await waitFor(() => expect(marked).toEqual(["2"]));
    expect(currentPath()).toBe("/meetings/3");
    await waitFor(() => expect(screen.getByTestId("notifications-count")).toHaveTextContent("1"));
    expect(screen.getByRole("button", { name: "Notifications, 1 unread" })).toBeInTheDocument();
  });
});
