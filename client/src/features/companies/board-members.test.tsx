import { screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import type { CompanyMember, PendingInvitation } from "@shared/companies";
import type { CompanyRole } from "@shared/roles";
import { buildCompanyMember, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast, findToastBehindModal } from "@/testing/toasts";

const ada = buildCompanyMember({ id: 1, firstName: "Ada", lastName: "Lovelace", email: "ada@engines.org", role: "founder" });
const grace = buildCompanyMember({
  id: 2,
  firstName: "Grace",
  lastName: "Hopper",
  email: "grace@navy.mil",
  role: "observer",
  profileImageUrl: "https://img.example.com/grace.png",
  isMultiCompanyMember: true,
  otherCompanies: [{ id: 5, name: "Cobol Foundation", role: "admin" }],
});
const alan = buildCompanyMember({ id: 3, firstName: "Alan", lastName: "Turing", email: "alan@bletchley.uk", role: "member" });

function serveMembers(initial: CompanyMember[]) {
  const state = { members: initial };
  server.use(handle(companiesApi.listMembers, () => state.members, { params: { companyId: 1 } }));
  return state;
}

function invitationOf(overrides: Partial<PendingInvitation> & Pick<PendingInvitation, "id" | "email">): PendingInvitation {
  return {
    role: "member",
    createdAt: "2026-03-01T09:00:00.000Z",
    expiresAt: "2026-03-15T09:00:00.000Z",
    status: "pending",
    hasLink: true,
    ...overrides,
  };
}

function serveInvitations(initial: PendingInvitation[]) {
  const state = { list: initial };
  server.use(handle(companiesApi.listInvitations, () => state.list, { params: { companyId: 1 } }));
  return state;
}

async function renderPage(role: CompanyRole = "founder") {
  const view = renderApp({ signedInAs: buildUser({ id: 1, companyId: 1, role }), path: "/board-members" });
  await screen.findByRole("list", { name: "Members" });
  return view;
}

const cards = () => screen.queryAllByTestId("member-card");
const cardNames = () => cards().map((card) => within(card).getByRole("heading").textContent);

describe("Board Members", () => {
  it("shows each member's name, e-mail, role label, avatar or initials and other boards", async () => {
    serveMembers([ada, grace, alan]);
    await renderPage();
    expect(cardNames()).toEqual(["Ada Lovelace", "Grace Hopper", "Alan Turing"]);
    const [adaCard, graceCard] = cards();
    expect(within(adaCard!).getByText("Founder / Admin")).toBeInTheDocument();
    expect(within(adaCard!).getByText("AL")).toBeInTheDocument();
    expect(within(adaCard!).getByRole("link", { name: "ada@engines.org" })).toHaveAttribute("href", "mailto:ada@engines.org");
    expect(within(graceCard!).getByText("Observer")).toBeInTheDocument();
    expect(within(graceCard!).getByText("Also on the board of")).toBeInTheDocument();
    expect(within(graceCard!).getByText(/Cobol Foundation/)).toHaveTextContent("Cobol Foundation · Admin");
  });

  it("searches first name, last name, e-mail and role, ignoring case", async () => {
    serveMembers([ada, grace, alan]);
    const view = await renderPage();
    const search = screen.getByRole("searchbox", { name: "Search members" });
    for (const [query, names] of [
      ["GRACE", ["Grace Hopper"]],
      ["turing", ["Alan Turing"]],
      ["Engines.ORG", ["Ada Lovelace"]],
      ["observer", ["Grace Hopper"]],
      ["board member", ["Alan Turing"]],
    ] as const) {
      await view.user.clear(search);
      await view.user.type(search, query);
      expect(cardNames()).toEqual(names);
    }
    await view.user.clear(search);
    await view.user.type(search, "nobody at all");
    expect(cards()).toHaveLength(0);
    expect(screen.getByText("No members match your search.")).toBeInTheDocument();
  });

  it.each([
    ["founder", true],
    ["admin", true],
    ["member", false],
    ["observer", false],
  ] as const)("Add Member for a %s: %s", async (role, shown) => {
    serveMembers([ada]);
    await renderPage(role);
    expect(screen.queryByRole("button", { name: "Add Member" }) !== null).toBe(shown);
  });

  it("validates the Add Member dialog with the form's messages; the role defaults to Board Member", async () => {
    serveMembers([ada]);
    const view = await renderPage();
    await view.user.click(screen.getByRole("button", { name: "Add Member" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Board Member" });
    expect(within(dialog).getByRole("combobox", { name: "Role" })).toHaveTextContent("Board Member");
    await view.user.type(within(dialog).getByLabelText("Email"), "not-an-email");
    await view.user.type(within(dialog).getByLabelText("Password"), "12345");
    await view.user.click(within(dialog).getByRole("button", { name: "Add Member" }));
    expect(await within(dialog).findByText("Invalid email address")).toBeInTheDocument();
    expect(within(dialog).getByText("First name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Last name is required")).toBeInTheDocument();
    expect(within(dialog).getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
  });

  it("invites rather than adds: 'Invitation sent', the link shown once to copy, and the invitation listed, not the member", async () => {
    const state = serveMembers([ada]);
    const invitations = serveInvitations([]);
    let posted: unknown;
    server.use(
      handle(
        companiesApi.addMember,
        ({ body }) => {
          posted = body;
          invitations.list = [invitationOf({ id: 9, email: "kj@nasa.gov", role: "observer" })];
          return {
            status: "invited",
            invitation: {
              id: 9,
              email: "kj@nasa.gov",
              role: "observer",
              createdAt: "2026-03-01T09:00:00.000Z",
              expiresAt: "2026-03-15T09:00:00.000Z",
            },
            inviteUrl: "http://localhost/invite?token=first-link",
          };
        },
        { params: { companyId: 1 } },
      ),
    );
    const view = await renderPage("admin");
    expect(await screen.findByText("No invitations yet.")).toBeInTheDocument();
    await view.user.click(screen.getByRole("button", { name: "Add Member" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Board Member" });
    await view.user.type(within(dialog).getByLabelText("First name"), "Katherine");
    await view.user.type(within(dialog).getByLabelText("Last name"), "Johnson");
    await view.user.type(within(dialog).getByLabelText("Email"), "kj@nasa.gov");
    await view.user.click(within(dialog).getByRole("combobox", { name: "Role" }));
    await view.user.click(await screen.findByRole("option", { name: "Observer" }));
    await view.user.type(within(dialog).getByLabelText("Password"), "orbital-1");
    await view.user.click(within(dialog).getByRole("button", { name: "Add Member" }));

    await findToastBehindModal("Invitation sent");
    expect(posted).toEqual({
      firstName: "Katherine",
      lastName: "Johnson",
      email: "kj@nasa.gov",
      role: "observer",
      password: "orbital-1",
      companyId: 1,
    });
    const notice = await within(dialog).findByRole("region", { name: "Invitation link" });
    expect(within(notice).getByLabelText("Invitation link")).toHaveValue("http://localhost/invite?token=first-link");
    expect(notice).toHaveTextContent("This link will not be shown again");
    await view.user.click(within(notice).getByRole("button", { name: "Copy invitation link" }));
    expect(await within(notice).findByText("Invitation link copied.")).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe("http://localhost/invite?token=first-link");

    await view.user.click(within(notice).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // Nobody joined: the invitation is listed, the member list is as it was, and the link is not shown again.
    const list = await screen.findByRole("list", { name: "Invitations" });
    expect(within(list).getByText("kj@nasa.gov")).toBeInTheDocument();
    expect(within(list).getByText("Pending")).toBeInTheDocument();
    expect(cardNames()).toEqual(["Ada Lovelace"]);
    expect(state.members).toEqual([ada]);
    expect(screen.queryByText("http://localhost/invite?token=first-link")).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Invitation link" })).not.toBeInTheDocument();
  });

  it("lists the invitations with their state; Resend shows the new link once, Revoke asks first", async () => {
    serveMembers([ada]);
    const invitations = serveInvitations([
      invitationOf({ id: 4, email: "cfo@example.com", role: "admin" }),
      invitationOf({ id: 3, email: "late@example.com", status: "expired" }),
      invitationOf({ id: 2, email: "joined@example.com", status: "accepted" }),
      invitationOf({ id: 1, email: "early@example.com", hasLink: false }),
    ]);
    const revoked: string[] = [];
    server.use(
      handle(
        companiesApi.resendInvitation,
        ({ params }) => ({
          status: "invited",
          invitation: {
            id: params.id,
            email: "late@example.com",
            role: "member",
            createdAt: "2026-03-01T09:00:00.000Z",
            expiresAt: "2026-03-15T09:00:00.000Z",
          },
          inviteUrl: "http://localhost/invite?token=second-link",
        }),
        { params: { companyId: 1 } },
      ),
      handle(
        companiesApi.revokeInvitation,
        ({ params }) => {
          revoked.push(String(params.id));
          invitations.list = invitations.list.map((invitation) =>
            invitation.id === params.id ? { ...invitation, status: "revoked" as const } : invitation,
          );
        },
        { params: { companyId: 1 } },
      ),
    );
    const view = await renderPage("founder");
    const list = await screen.findByRole("list", { name: "Invitations" });
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^cfo@example\.comAdminStatus: PendingExpires .*ResendRevoke$/),
      expect.stringMatching(/^late@example\.comBoard MemberStatus: ExpiredExpired .*Resend$/),
      expect.stringMatching(/^joined@example\.comBoard MemberStatus: AcceptedSent .*$/),
      "early@example.comBoard MemberStatus: PendingNo link yet: resend it to send oneResendRevoke",
    ]);

    await view.user.click(screen.getByRole("button", { name: "Resend the invitation to late@example.com" }));
    await findToast("Invitation sent");
    const notice = await screen.findByRole("region", { name: "Invitation link" });
    expect(within(notice).getByLabelText("Invitation link")).toHaveValue("http://localhost/invite?token=second-link");
    await view.user.click(within(notice).getByRole("button", { name: "Done" }));
    expect(screen.queryByRole("region", { name: "Invitation link" })).not.toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Revoke the invitation to cfo@example.com" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Revoke this invitation?" });
    expect(revoked).toEqual([]);
    await view.user.click(within(confirm).getByRole("button", { name: "Revoke" }));
    await findToast("Invitation revoked");
    expect(revoked).toEqual(["4"]);
    await waitFor(() => expect(within(list).getAllByRole("listitem")[0]).toHaveTextContent("Status: Revoked"));
  });

  it("shows no invitations to a member, and a member with no shared boards lists none", async () => {
    serveMembers([ada, alan]);
    await renderPage("member");
    expect(screen.queryByRole("heading", { name: "Pending invitations" })).not.toBeInTheDocument();
    expect(screen.queryByText("Also on the board of")).not.toBeInTheDocument();
  });

  it("says 'Failed to add board member. Please try again.' and shows why on the e-mail", async () => {
    serveMembers([ada]);
    server.use(
      handle(companiesApi.addMember, () => apiError(409, "This person is already a member of the company"), {
        params: { companyId: 1 },
      }),
    );
    const view = await renderPage();
    await view.user.click(screen.getByRole("button", { name: "Add Member" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Board Member" });
    await view.user.type(within(dialog).getByLabelText("First name"), "Ada");
    await view.user.type(within(dialog).getByLabelText("Last name"), "Lovelace");
    await view.user.type(within(dialog).getByLabelText("Email"), "ada@engines.org");
    await view.user.type(within(dialog).getByLabelText("Password"), "secret-1");
    await view.user.click(within(dialog).getByRole("button", { name: "Add Member" }));
    const toast = await findToastBehindModal("Error");
    expect(within(toast).getByText("Failed to add board member. Please try again.")).toBeInTheDocument();
    expect(toast).toHaveClass("destructive");
    expect(within(dialog).getByText("This person is already a member of the company")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Add Board Member" })).toBeInTheDocument();
  });
});
