import { screen, waitFor, within } from "@testing-library/react";
import * as notificationsApi from "@shared/api/notifications";
import type { AppNotification } from "@shared/notifications";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const notification = (overrides: Partial<AppNotification>): AppNotification => ({
  id: 1,
  kind: "resolutionCreated",
  companyId: 1,
  title: "Vote on the budget",
  body: "A resolution awaits your vote.",
  link: "/resolutions/7",
  readAt: null,
  createdAt: new Date().toISOString(),
  ...overrides,
});

describe("notifications bell", () => {
  it("says there is nothing new when every notification is read, and still lists the recent ones, without a count or 'Mark all read'", async () => {
    server.use(
      handle(notificationsApi.listNotifications, () => [notification({ title: "Seen already", readAt: new Date().toISOString() })]),
    );
    const { user } = renderApp({ signedInAs: buildUser() });
    await user.click(await screen.findByRole("button", { name: "Notifications" }));
    expect(await screen.findByText("No new notifications")).toBeInTheDocument();
    const menu = screen.getByRole("menu");
    expect(within(menu).getByRole("menuitem", { name: /Seen already/ })).toHaveAttribute("href", "/resolutions/7");
    expect(within(menu).queryByRole("menuitem", { name: "Mark all read" })).not.toBeInTheDocument();
    expect(screen.queryByTestId("notifications-count")).not.toBeInTheDocument();
  });

  it("counts and lists unread notifications; choosing one marks it read and follows its link", async () => {
    const marked: string[] = [];
    server.use(
      handle(notificationsApi.listNotifications, () => [
        notification({ id: 1, title: "Vote on the budget", link: "/resolutions/7" }),
        notification({ id: 2, title: "Meeting moved", link: "/meetings/3" }),
        notification({ id: 3, title: "Old news", readAt: new Date().toISOString() }),
      ]),
      handle(notificationsApi.markNotificationRead, ({ params }) => {
        marked.push(String(params.id));
      }),
    );
    const { user, currentPath } = renderApp({ signedInAs: buildUser() });
    expect(await screen.findByTestId("notifications-count")).toHaveTextContent("2");

    // The count is part of the button's accessible name, so a screen reader announces it.
    await user.click(screen.getByRole("button", { name: "Notifications, 2 unread" }));
    const menu = await screen.findByRole("menu");
    // Unread first in the server's order, then the recently read one; each names whether it is unread.
    expect(within(menu).getByRole("menuitem", { name: /^Vote on the budget, unread/ })).toHaveAttribute("href", "/resolutions/7");
    expect(within(menu).getByRole("menuitem", { name: /Old news/ })).not.toHaveAccessibleName(/unread/);

    await user.click(within(menu).getByText("Meeting moved"));
    await waitFor(() => expect(marked).toEqual(["2"]));
    expect(currentPath()).toBe("/meetings/3");
    await waitFor(() => expect(screen.getByTestId("notifications-count")).toHaveTextContent("1"));
    expect(screen.getByRole("button", { name: "Notifications, 1 unread" })).toBeInTheDocument();
  });

  it("choosing a notification already read follows its link without marking it again", async () => {
    const marked: string[] = [];
    server.use(
      handle(notificationsApi.listNotifications, () => [
        notification({ id: 5, title: "Old news", link: "/meetings/9", readAt: new Date().toISOString() }),
      ]),
      handle(notificationsApi.markNotificationRead, ({ params }) => {
        marked.push(String(params.id));
      }),
    );
    const { user, currentPath } = renderApp({ signedInAs: buildUser() });
    await user.click(await screen.findByRole("button", { name: "Notifications" }));
    await user.click(await screen.findByRole("menuitem", { name: /Old news/ }));
    await waitFor(() => expect(currentPath()).toBe("/meetings/9"));
    expect(marked).toEqual([]);
  });

  it("'Mark all read' marks every notification read on the server and clears the count", async () => {
    let readAll = 0;
    server.use(
      handle(notificationsApi.listNotifications, () => [notification({ id: 1, title: "First" }), notification({ id: 2, title: "Second" })]),
      handle(notificationsApi.markAllNotificationsRead, () => {
        readAll += 1;
      }),
    );
    const { user } = renderApp({ signedInAs: buildUser() });
    await user.click(await screen.findByRole("button", { name: "Notifications, 2 unread" }));
    await user.click(await screen.findByRole("menuitem", { name: "Mark all read" }));
    await waitFor(() => expect(screen.queryByTestId("notifications-count")).not.toBeInTheDocument());
    expect(readAll).toBe(1);
    expect(screen.getByRole("button", { name: "Notifications" })).toBeInTheDocument();
    // The menu stays open, its items now read.
    expect(within(screen.getByRole("menu")).getByRole("menuitem", { name: /First/ })).not.toHaveAccessibleName(/unread/);
    expect(screen.getByText("No new notifications")).toBeInTheDocument();
  });
});
