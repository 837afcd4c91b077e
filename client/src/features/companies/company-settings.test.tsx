import { screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import type { CompanyMember, CompanySettings, PendingInvitation } from "@shared/companies";
import type { CompanyRole } from "@shared/roles";
import { buildCompany, buildCompanyMember, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { canChangeRole } from "@/features/companies/components/team-members";

const company = buildCompany({
  industry: "energy",
  description: "We make anvils",
  website: "https://acme.example.com",
  employeeCount: "11-50",
});

const person = (id: number, firstName: string, role: CompanyRole): CompanyMember =>
  buildCompanyMember({
    id,
    firstName,
    lastName: "Smith",
    username: firstName.toLowerCase(),
    email: `${firstName.toLowerCase()}@acme.example.com`,
    role,
  });

const fay = person(1, "Fay", "founder");
const adam = person(2, "Adam", "admin");
const mia = person(3, "Mia", "member");

function serveSettings(settings: Partial<CompanySettings> = {}) {
  const state: CompanySettings = { company, members: [fay, adam, mia], invitations: [], ...settings };
  server.use(handle(companiesApi.getCompanySettings, () => state, { params: { companyId: 1 } }));
  return state;
}

async function renderSettings(userId: number, role: CompanyRole) {
  const view = renderApp({ signedInAs: buildUser({ id: userId, companyId: 1, role }), path: "/company-settings" });
  await screen.findByRole("tab", { name: "General" });
  return view;
}

describe("canChangeRole", () => {
  it("lets founders change anyone else, admins anyone but founders, nobody themself", () => {
    expect(canChangeRole({ id: 1, role: "founder" }, { id: 2, role: "founder" })).toBe(true);
    expect(canChangeRole({ id: 1, role: "founder" }, { id: 1, role: "founder" })).toBe(false);
    expect(canChangeRole({ id: 2, role: "admin" }, { id: 3, role: "member" })).toBe(true);
    expect(canChangeRole({ id: 2, role: "admin" }, { id: 1, role: "founder" })).toBe(false);
    expect(canChangeRole({ id: 3, role: "member" }, { id: 4, role: "observer" })).toBe(false);
  });
});

describe("Company Settings access", () => {
  it.each(["member", "observer"] as const)("sends a %s to / with 'Access Denied'", async (role) => {
    let settingsRequested = false;
    server.use(
      handle(
        companiesApi.getCompanySettings,
        () => {
          settingsRequested = true;
          return apiError(403, "no");
        },
        { params: { companyId: 1 } },
      ),
    );
    const view = renderApp({ signedInAs: buildUser({ companyId: 1, role }), path: "/company-settings" });
    const toastItem = await findToast("Access Denied");
    expect(within(toastItem).getByText("You don't have permission to access company settings.")).toBeInTheDocument();
    await waitFor(() => expect(view.currentPath()).toBe("/"));
    expect(screen.queryByRole("tab", { name: "General" })).not.toBeInTheDocument();
    expect(settingsRequested).toBe(false);
  });

  it.each(["founder", "admin"] as const)("opens for a %s", async (role) => {
    serveSettings();
    const view = await renderSettings(1, role);
    expect(view.currentPath()).toBe("/company-settings");
    expect(screen.getByRole("tab", { name: "Team Members" })).toBeInTheDocument();
  });
});

describe("General tab", () => {
  it("shows the company, offers the settings lists, and saves with PUT", async () => {
    serveSettings();
    let putBody: Record<string, unknown> | undefined;
    server.use(
      handle(
        companiesApi.updateCompany,
        ({ body }) => {
          putBody = body;
          return { ...company, ...body };
        },
        { params: { companyId: 1 } },
      ),
    );
    const view = await renderSettings(1, "founder");
    expect(screen.getByLabelText("Company name")).toHaveValue("Acme Holdings");
    // "Energy" is not in the settings list, but the stored industry is kept as an option.
    expect(screen.getByRole("combobox", { name: "Industry" })).toHaveTextContent("Energy");
    await view.user.click(screen.getByRole("combobox", { name: "Industry" }));
    const options = (await screen.findAllByRole("option")).map((option) => option.textContent);
    expect(options).toEqual([
      "Technology",
      "Healthcare",
      "Finance",
      "Education",
      "Real Estate",
      "Retail",
      "Manufacturing",
      "Other",
      "Energy",
    ]);
    await view.user.click(screen.getByRole("option", { name: "Real Estate" }));

    await view.user.click(screen.getByRole("combobox", { name: "Funding stage" }));
    expect((await screen.findAllByRole("option")).map((option) => option.textContent)).toEqual([
      "Pre-seed",
      "Seed",
      "Series A",
      "Series B",
      "Series C",
      "Series D+",
      "Public",
    ]);
    await view.user.click(screen.getByRole("option", { name: "Series D+" }));

    const name = screen.getByLabelText("Company name");
    await view.user.clear(name);
    await view.user.type(name, "Acme Group");
    await view.user.type(screen.getByLabelText("Invitation message"), "Welcome to the board");
    await view.user.click(screen.getByRole("button", { name: "Save Changes" }));

    await findToast("Company updated");
    expect(putBody).toMatchObject({
      name: "Acme Group",
      industry: "real-estate",
      stage: "series-d",
      location: "London, United Kingdom",
      website: "https://acme.example.com",
      employeeCount: "11-50",
      invitationMessage: "Welcome to the board",
    });
  });

  it("validates with the form's messages before saving", async () => {
    serveSettings();
    let saved = false;
    server.use(
      handle(
        companiesApi.updateCompany,
        () => {
          saved = true;
          return company;
        },
        { params: { companyId: 1 } },
      ),
    );
    const view = await renderSettings(1, "founder");
    await view.user.clear(screen.getByLabelText("Company name"));
    await view.user.clear(screen.getByLabelText("Location"));
    const website = screen.getByLabelText("Website");
    await view.user.clear(website);
    await view.user.type(website, "acme dot com");
    await view.user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("Company name is required")).toBeInTheDocument();
    expect(screen.getByText("Location is required")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid URL")).toBeInTheDocument();
    expect(saved).toBe(false);
  });

  it("says 'Update failed' when saving fails", async () => {
    serveSettings();
    server.use(handle(companiesApi.updateCompany, () => apiError(500, "Internal error"), { params: { companyId: 1 } }));
    const view = await renderSettings(1, "founder");
    await view.user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(within(await findToast("Update failed")).getByText("There was an error updating company settings.")).toBeInTheDocument();
  });
});

describe("Team Members tab", () => {
  it("offers a role select for others, never for oneself, and none on a founder for an admin", async () => {
    serveSettings();
    const view = await renderSettings(2, "admin");
    await view.user.click(screen.getByRole("tab", { name: "Team Members" }));
    const rows = await screen.findAllByTestId("team-member");
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).queryByRole("combobox")).not.toBeInTheDocument();
    expect(within(rows[0]!).getByText("Founder / Admin")).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole("combobox")).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText("(you)")).toBeInTheDocument();
    const miaRole = within(rows[2]!).getByRole("combobox", { name: "Role of Mia Smith" });
    await view.user.click(miaRole);
    expect((await screen.findAllByRole("option")).map((option) => option.textContent)).toEqual(["Admin", "Board Member", "Observer"]);
  });

  it("changes a role with PATCH /api/users/:id/role, and says so when it fails", async () => {
    serveSettings();
    const bodies: unknown[] = [];
    let fail = false;
    server.use(
      handle(
        companiesApi.changeRole,
        ({ body }) => {
          bodies.push(body);
          if (fail) return apiError(403, "no");
          return { id: 3, companyId: 1, role: "observer" };
        },
        { params: { userId: 3 } },
      ),
    );
    const view = await renderSettings(1, "founder");
    await view.user.click(screen.getByRole("tab", { name: "Team Members" }));
    await view.user.click(await screen.findByRole("combobox", { name: "Role of Mia Smith" }));
    await view.user.click(await screen.findByRole("option", { name: "Observer" }));
    expect(within(await findToast("Role updated")).getByText("Mia Smith is now Observer.")).toBeInTheDocument();
    expect(bodies).toEqual([{ role: "observer", companyId: 1 }]);

    fail = true;
    await view.user.click(screen.getByRole("combobox", { name: "Role of Mia Smith" }));
    await view.user.click(await screen.findByRole("option", { name: "Admin" }));
    expect(within(await findToast("Update failed")).getByText("There was an error updating member role.")).toBeInTheDocument();
  });

  it("invites by e-mail with a role, validating the e-mail, and shows the link once", async () => {
    serveSettings();
    const old: PendingInvitation = {
      id: 4,
      email: "old@example.com",
      role: "observer",
      createdAt: "2026-01-02T00:00:00.000Z",
      expiresAt: "2026-01-16T00:00:00.000Z",
      status: "pending",
      hasLink: true,
    };
    server.use(handle(companiesApi.listInvitations, () => [old], { params: { companyId: 1 } }));
    let posted: unknown;
    server.use(
      handle(
        companiesApi.addMember,
        ({ body }) => {
          posted = body;
          return {
            status: "invited",
            invitation: {
              id: 5,
              email: "new@example.com",
              role: "admin",
              createdAt: "2026-01-03T00:00:00.000Z",
              expiresAt: "2026-01-17T00:00:00.000Z",
            },
            inviteUrl: "http://localhost/invite?token=new-link",
          };
        },
        { params: { companyId: 1 } },
      ),
    );
    const view = await renderSettings(1, "founder");
    await view.user.click(screen.getByRole("tab", { name: "Team Members" }));
    const form = await screen.findByRole("form", { name: "Invite a member" });
    expect(await screen.findByText("old@example.com")).toBeInTheDocument();

    await view.user.type(within(form).getByLabelText("Email"), "new@");
    await view.user.click(within(form).getByRole("button", { name: "Send Invitation" }));
    expect(await within(form).findByText("Please enter a valid email")).toBeInTheDocument();

    await view.user.type(within(form).getByLabelText("Email"), "example.com");
    await view.user.click(within(form).getByRole("combobox", { name: "Role" }));
    await view.user.click(await screen.findByRole("option", { name: "Admin" }));
    await view.user.click(within(form).getByRole("button", { name: "Send Invitation" }));
    expect(
      within(await findToast("Invitation sent")).getByText("new@example.com joins as Admin once they accept the invitation."),
    ).toBeInTheDocument();
    expect(posted).toEqual({ email: "new@example.com", role: "admin", companyId: 1 });
    await waitFor(() => expect(within(form).getByLabelText("Email")).toHaveValue(""));
    const notice = screen.getByRole("region", { name: "Invitation link" });
    expect(within(notice).getByLabelText("Invitation link")).toHaveValue("http://localhost/invite?token=new-link");
    expect(within(notice).getByRole("button", { name: "Copy invitation link" })).toBeInTheDocument();
  });

  it("says 'Invitation failed' when the invitation fails", async () => {
    serveSettings();
    server.use(
      handle(companiesApi.addMember, () => apiError(409, "This person is already a member of the company"), {
        params: { companyId: 1 },
      }),
    );
    const view = await renderSettings(1, "founder");
    await view.user.click(screen.getByRole("tab", { name: "Team Members" }));
    const form = await screen.findByRole("form", { name: "Invite a member" });
    await view.user.type(within(form).getByLabelText("Email"), "mia@acme.example.com");
    await view.user.click(within(form).getByRole("button", { name: "Send Invitation" }));
    expect(within(await findToast("Invitation failed")).getByText("There was an error sending the invitation.")).toBeInTheDocument();
    expect(within(form).getByText("This person is already a member of the company")).toBeInTheDocument();
  });
});
