import { screen, waitFor, within } from "@testing-library/react";
import { http, HttpResponse } from "msw";
import type { CompanyMember } from "@shared/companies";
import type { CompanyRole } from "@shared/roles";
import { buildCompanyMember, buildUser } from "@/testing/factories";
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
  server.use(http.get("/api/companies/1/members", () => HttpResponse.json(state.members)));
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

  it("adds a member: posts the form, closes, and lists them", async () => {
    const state = serveMembers([ada]);
    let posted: unknown;
    const newcomer = buildCompanyMember({
      id: 9,
      firstName: "Katherine",
      lastName: "Johnson",
      email: "kj@nasa.gov",
      username: "kj@nasa.gov",
    });
    server.use(
      http.post("/api/companies/1/members", async ({ request }) => {
        posted = await request.json();
        state.members = [ada, newcomer];
        return HttpResponse.json({ status: "created", member: newcomer }, { status: 201 });
      }),
    );
    const view = await renderPage("admin");
    await view.user.click(screen.getByRole("button", { name: "Add Member" }));
    const dialog = await screen.findByRole("dialog", { name: "Add Board Member" });
    await view.user.type(within(dialog).getByLabelText("First name"), "Katherine");
    await view.user.type(within(dialog).getByLabelText("Last name"), "Johnson");
    await view.user.type(within(dialog).getByLabelText("Email"), "kj@nasa.gov");
    await view.user.click(within(dialog).getByRole("combobox", { name: "Role" }));
    await view.user.click(await screen.findByRole("option", { name: "Observer" }));
    await view.user.type(within(dialog).getByLabelText("Password"), "orbital-1");
    await view.user.click(within(dialog).getByRole("button", { name: "Add Member" }));

    await findToast("Member added");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(posted).toEqual({
      firstName: "Katherine",
      lastName: "Johnson",
      email: "kj@nasa.gov",
      role: "observer",
      password: "orbital-1",
      companyId: 1,
    });
    await waitFor(() => expect(cardNames()).toEqual(["Ada Lovelace", "Katherine Johnson"]));
  });

  it("says 'Failed to add board member. Please try again.' and shows why on the e-mail", async () => {
    serveMembers([ada]);
    server.use(
      http.post("/api/companies/1/members", () =>
        HttpResponse.json({ message: "This person is already a member of the company" }, { status: 409 }),
      ),
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
