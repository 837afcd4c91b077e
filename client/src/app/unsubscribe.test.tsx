import { screen, waitFor } from "@testing-library/react";
import * as notificationsApi from "@shared/api/notifications";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

/** The unsubscribe page an e-mail links to: opening it changes nothing; its button does. */
function serveUnsubscribe({ valid = true } = {}) {
  const state = { previews: [] as string[], posts: [] as unknown[] };
  server.use(
    handle(notificationsApi.unsubscribePreview, ({ query }) => {
      state.previews.push(query.token ?? "");
      return valid ? { key: "meetingReminders", label: "Meeting Reminders" } : apiError(400, "This unsubscribe link is not valid");
    }),
    handle(notificationsApi.unsubscribe, ({ body }) => {
      state.posts.push(body);
      return { key: "meetingReminders", label: "Meeting Reminders" };
    }),
  );
  return state;
}

describe("/unsubscribe", () => {
  it("signed out: says which switch the link turns off, turns it off only when the button is pressed, then says so", async () => {
    const state = serveUnsubscribe();
    const { user } = renderApp({ path: "/unsubscribe?token=abc.def" });
    expect(await screen.findByText("Meeting Reminders", { selector: "strong" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 1, name: "Unsubscribe" })).toBeInTheDocument();
    expect(state.previews).toEqual(["abc.def"]);
    expect(state.posts).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Turn off Meeting Reminders" }));
    expect(await screen.findByRole("heading", { level: 1, name: "You are unsubscribed" })).toBeInTheDocument();
    expect(screen.getByText('"Meeting Reminders" is now off.')).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open Settings" })).toHaveAttribute("href", "/settings");
    expect(state.posts).toEqual([{ token: "abc.def" }]);
  });

  it("says a link that is not genuine is not valid, and offers no button", async () => {
    const state = serveUnsubscribe({ valid: false });
    renderApp({ path: "/unsubscribe?token=forged" });
    expect(await screen.findByRole("alert")).toHaveTextContent("This unsubscribe link is not valid");
    expect(screen.queryByRole("button", { name: /Turn off/ })).not.toBeInTheDocument();
    expect(state.posts).toEqual([]);
  });

  it("without a token, asks the server nothing and says the link is not valid", async () => {
    const state = serveUnsubscribe();
    renderApp({ path: "/unsubscribe" });
    expect(await screen.findByRole("alert")).toHaveTextContent("This unsubscribe link is not valid");
    expect(state.previews).toEqual([]);
  });

  it("signed in: the same page, outside the app's shell", async () => {
    const state = serveUnsubscribe();
    const { user } = renderApp({ path: "/unsubscribe?token=abc.def", signedInAs: buildUser({ id: 7, companyId: 3 }) });
    await user.click(await screen.findByRole("button", { name: "Turn off Meeting Reminders" }));
    await waitFor(() => expect(state.posts).toEqual([{ token: "abc.def" }]));
    expect(await screen.findByRole("heading", { level: 1, name: "You are unsubscribed" })).toBeInTheDocument();
    expect(screen.queryByRole("navigation")).not.toBeInTheDocument();
  });
});
