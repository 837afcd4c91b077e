import { screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import * as companiesApi from "@shared/api/companies";
import type { User } from "@shared/auth";
import type { MyInvitation } from "@shared/identity";
import { buildCompanyMember, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

const alpha: MyInvitation = {
  id: 31,
  companyName: "Alpha Board Ltd",
  role: "admin",
  inviterName: "Fay Founder",
  expiresAt: "2026-03-15T09:00:00.000Z",
};
const beta: MyInvitation = {
  id: 32,
  companyName: "Beta Holdings",
  role: "observer",
  inviterName: "Bo Brown",
  expiresAt: "2026-03-20T09:00:00.000Z",
};

describe("the dashboard's invitations", () => {
  it("lists invitations to the user's address; Decline drops one, Accept joins and switches to the company", async () => {
    let mine = [alpha, beta];
    let current: User = buildUser({ id: 5, companyId: 2, role: "member" });
    const answered: string[] = [];
    server.use(
      handle(companiesApi.listMyInvitations, () => mine),
      handle(companiesApi.declineInvitation, ({ params }) => {
        answered.push(`decline ${params.id}`);
        mine = mine.filter((invitation) => invitation.id !== params.id);
      }),
      handle(companiesApi.acceptInvitation, ({ params }) => {
        answered.push(`accept ${params.id}`);
        mine = mine.filter((invitation) => invitation.id !== params.id);
        return { companyId: 9, role: "admin" };
      }),
      handle(
        companiesApi.switchActiveCompany,
        ({ body }) => {
          answered.push(`switch ${JSON.stringify(body)}`);
          current = { ...current, companyId: 9, role: "admin" };
          return current;
        },
        { params: { id: 5 } },
      ),
    );
    const { user } = renderApp({ path: "/", signedInAs: current });
    server.use(handle(authApi.currentUser, () => current));
    const panel = await screen.findByRole("region", { name: "Invitations" });
    const rows = within(panel).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      "Alpha Board LtdAdmin · invited by Fay Founder · until March 15, 2026AcceptDecline",
      "Beta HoldingsObserver · invited by Bo Brown · until March 20, 2026AcceptDecline",
    ]);

    await user.click(within(panel).getByRole("button", { name: "Decline the invitation to Beta Holdings" }));
    await findToast("Invitation declined");
    await waitFor(() => expect(within(panel).getAllByRole("listitem")).toHaveLength(1));

    await user.click(within(panel).getByRole("button", { name: "Accept the invitation to Alpha Board Ltd" }));
    await findToast("Invitation accepted");
    expect(answered).toEqual(["decline 32", "accept 31", 'switch {"companyId":9}']);
    // None left: the panel goes.
    await waitFor(() => expect(screen.queryByRole("region", { name: "Invitations" })).not.toBeInTheDocument());
  });

  it("a user without a company sees them above the company wizard", async () => {
    server.use(handle(companiesApi.listMyInvitations, () => [alpha]));
    renderApp({ path: "/", signedInAs: buildUser({ companyId: null, role: null }) });
    expect(await screen.findByRole("heading", { level: 1, name: "Set up your company" })).toBeInTheDocument();
    const panel = await screen.findByRole("region", { name: "Invitations" });
    expect(within(panel).getByRole("button", { name: "Accept the invitation to Alpha Board Ltd" })).toBeInTheDocument();
  });

  it("is not there when there are none", async () => {
    renderApp({ path: "/", signedInAs: buildUser() });
    expect(await screen.findByRole("heading", { level: 1, name: "Dashboard" })).toBeInTheDocument();
    await screen.findByRole("region", { name: "Quick Actions" });
    expect(screen.queryByRole("region", { name: "Invitations" })).not.toBeInTheDocument();
  });
});

describe("Settings → Leave company", () => {
  function serveCompany(members = [buildCompanyMember({ id: 5, role: "member" }), buildCompanyMember({ id: 1, role: "founder" })]) {
    server.use(
      handle(companiesApi.listCompanies, () => [{ id: 2, name: "Acme Holdings", logoUrl: null, industry: null, role: "member" }]),
      handle(companiesApi.listMembers, () => members, { params: { companyId: 2 } }),
    );
  }

  it("leaves after a confirmation, reads the user again and goes to the dashboard", async () => {
    serveCompany();
    let current: User = buildUser({ id: 5, companyId: 2, role: "member" });
    let left = 0;
    server.use(
      handle(
        companiesApi.leaveCompany,
        () => {
          left += 1;
          current = { ...current, companyId: null, role: null };
        },
        { params: { companyId: 2 } },
      ),
    );
    const { user, currentPath } = renderApp({ path: "/settings", signedInAs: current });
    server.use(handle(authApi.currentUser, () => current));
    const heading = await screen.findByRole("heading", { level: 2, name: "Leave company" });
    const card = heading.closest<HTMLElement>("[data-slot=card]")!;
    await within(card).findByText(/Stop being a member of Acme Holdings/);
    await user.click(within(card).getByRole("button", { name: "Leave company" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Leave Acme Holdings?" });
    expect(left).toBe(0);
    await user.click(within(confirm).getByRole("button", { name: "Leave company" }));
    await findToast("You left the company");
    expect(left).toBe(1);
    // Without a company left, the dashboard sends the user on to set one up.
    await waitFor(() => expect(currentPath()).toBe("/company-onboarding"));
  });

  it("is off for the last founder, with the reason; a 409 from the server is shown as it says", async () => {
    serveCompany([buildCompanyMember({ id: 5, role: "founder" })]);
    renderApp({ path: "/settings", signedInAs: buildUser({ id: 5, companyId: 2, role: "founder" }) });
    const heading = await screen.findByRole("heading", { level: 2, name: "Leave company" });
    const card = heading.closest<HTMLElement>("[data-slot=card]")!;
    expect(
      await within(card).findByText("You are this company's only founder: make another member a founder before you leave."),
    ).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Leave company" })).toBeDisabled();
  });

  it("shows the server's refusal", async () => {
    serveCompany();
    server.use(
      handle(companiesApi.leaveCompany, () => apiError(409, "The company's last founder cannot leave it."), { params: { companyId: 2 } }),
    );
    const { user } = renderApp({ path: "/settings", signedInAs: buildUser({ id: 5, companyId: 2, role: "member" }) });
    const card = (await screen.findByRole("heading", { level: 2, name: "Leave company" })).closest<HTMLElement>("[data-slot=card]")!;
    await user.click(within(card).getByRole("button", { name: "Leave company" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Leave company" }));
    expect(await within(card).findByRole("alert")).toHaveTextContent("The company's last founder cannot leave it.");
  });
});
