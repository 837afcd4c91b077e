import { screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import * as companiesApi from "@shared/api/companies";
import type { User } from "@shared/auth";
import type { InvitationPreview } from "@shared/identity";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { buildAuthResponse, buildUser } from "@/testing/factories";
import { apiError, handle, type FakeAnswer } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const pending: InvitationPreview = {
  companyName: "Alpha Board Ltd",
  role: "admin",
  inviterName: "Fay Founder",
  email: "c••@example.com",
  expiresAt: "2026-03-15T09:00:00.000Z",
  status: "pending",
};

/** The preview of the link's token, and what was asked of it. */
function servePreview(preview: InvitationPreview | (() => FakeAnswer<typeof companiesApi.previewInvitation>)) {
  const previews: unknown[] = [];
  server.use(
    handle(companiesApi.previewInvitation, ({ body }) => {
      previews.push(body);
      return typeof preview === "function" ? preview() : preview;
    }),
  );
  return previews;
}

const details = () => screen.getAllByRole("definition")[0]!.closest("dl")!;

describe("/invite", () => {
  it("signed out: names the company, role, inviter, masked address, expiry and status; creates the account and lands in the company", async () => {
    const previews = servePreview(pending);
    let registered: unknown;
    server.use(
      handle(authApi.register, ({ body }) => {
        registered = body;
        return buildAuthResponse({ id: 12, username: "cfo", email: "cfo@example.com", companyId: 9, role: "admin", token: "new-session" });
      }),
      handle(authApi.currentUser, () => buildUser({ id: 12, companyId: 9, role: "admin" })),
    );
    const { user, currentPath } = renderApp({ path: "/invite?token=invite-token" });
    expect(await screen.findByRole("heading", { level: 1, name: "Join Alpha Board Ltd" })).toBeInTheDocument();
    expect(previews).toEqual([{ token: "invite-token" }]);
    const terms = within(details())
      .getAllByRole("term")
      .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    expect(terms).toEqual([
      "Company: Alpha Board Ltd",
      "Role: Admin",
      "Invited by: Fay Founder",
      "Sent to: c••@example.com",
      "Expires: March 15, 2026",
      "Status: Waiting for an answer",
    ]);

    expect(screen.getByRole("heading", { level: 2, name: "Create account and join" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("First name"), "Cora");
    await user.type(screen.getByLabelText("Last name"), "Finch");
    await user.type(screen.getByLabelText("Username"), "cfo");
    await user.type(screen.getByLabelText("Email"), "cfo@example.com");
    await user.type(screen.getByLabelText("Password"), "cfo-password-1");
    await user.click(screen.getByRole("button", { name: "Create account and join" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(currentPath()).toBe("/");
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe("new-session");
    expect(registered).toEqual({
      username: "cfo",
      email: "cfo@example.com",
      password: "cfo-password-1",
      firstName: "Cora",
      lastName: "Finch",
      role: "founder",
      invitationToken: "invite-token",
    });
  });

  it("'I already have an account' signs in on the page, which then offers Accept", async () => {
    servePreview(pending);
    const member = buildUser({ id: 5, email: "cfo@example.com", companyId: 2 });
    server.use(
      handle(authApi.login, () => buildAuthResponse({ ...member, token: "member-session" })),
      handle(authApi.currentUser, () => member),
    );
    const { user, currentPath } = renderApp({ path: "/invite?token=invite-token" });
    await user.click(await screen.findByRole("button", { name: "I already have an account" }));
    expect(screen.getByRole("heading", { level: 2, name: "Sign in to accept" })).toBeInTheDocument();
    await user.type(screen.getByLabelText("Username"), "cfo");
    await user.type(screen.getByLabelText("Password"), "cfo-password-1");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("button", { name: "Accept" })).toBeInTheDocument();
    expect(currentPath()).toBe("/invite?token=invite-token");
  });

  it("signed in: Accept joins, switches to the company and goes to the dashboard", async () => {
    servePreview(pending);
    let current: User = buildUser({ id: 5, email: "cfo@example.com", companyId: 2, role: "member" });
    const accepted: unknown[] = [];
    const switched: unknown[] = [];
    server.use(
      handle(companiesApi.acceptInvitationByLink, ({ body }) => {
        accepted.push(body);
        return { companyId: 9, role: "admin" };
      }),
      handle(
        companiesApi.switchActiveCompany,
        ({ body }) => {
          switched.push(body);
          current = { ...current, companyId: 9, role: "admin" };
          return current;
        },
        { params: { id: 5 } },
      ),
    );
    const { user, currentPath } = renderApp({ path: "/invite?token=invite-token", signedInAs: current });
    server.use(handle(authApi.currentUser, () => current));
    await user.click(await screen.findByRole("button", { name: "Accept" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    expect(currentPath()).toBe("/");
    expect(accepted).toEqual([{ token: "invite-token" }]);
    expect(switched).toEqual([{ companyId: 9 }]);
  });

  it("signed in with another address: shows the server's 403 naming the address", async () => {
    servePreview(pending);
    server.use(
      handle(companiesApi.acceptInvitationByLink, () =>
        apiError(403, "This invitation was sent to c••@example.com. Sign in with that account to accept it."),
      ),
    );
    const { user } = renderApp({ path: "/invite?token=invite-token", signedInAs: buildUser({ email: "other@example.com" }) });
    await user.click(await screen.findByRole("button", { name: "Accept" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This invitation was sent to c••@example.com. Sign in with that account to accept it.",
    );
  });

  it.each([
    ["accepted", "This invitation has already been accepted."],
    ["declined", "This invitation was declined."],
    ["revoked", "This invitation was withdrawn by the company. Ask whoever invited you for a new one."],
    ["expired", "This invitation has expired. Ask whoever invited you to send it again."],
  ] as const)("a %s invitation is explained, with nothing to press", async (status, explanation) => {
    servePreview({ ...pending, status });
    renderApp({ path: "/invite?token=invite-token" });
    expect(await screen.findByText(explanation)).toHaveAttribute("role", "status");
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
    expect(screen.queryByRole("form")).not.toBeInTheDocument();
  });

  it("shows the server's message for a link that names nothing", async () => {
    servePreview(() => apiError(404, "The link's token is malformed or names nothing"));
    renderApp({ path: "/invite?token=forged" });
    expect(await screen.findByRole("alert")).toHaveTextContent("The link's token is malformed or names nothing");
    await waitFor(() => expect(screen.queryByRole("button", { name: "Accept" })).not.toBeInTheDocument());
  });
});
