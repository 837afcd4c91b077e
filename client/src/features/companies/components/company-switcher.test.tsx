import { screen, waitFor, within } from "@testing-library/react";
import * as authApi from "@shared/api/auth";
import * as companiesApi from "@shared/api/companies";
import type { User } from "@shared/auth";
import type { CompanySummary } from "@shared/companies";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { companyKeys } from "@/features/companies/api/company-keys";
import { shouldShowCompanySwitcher } from "@/features/companies/components/company-switcher";

const acme: CompanySummary = { id: 1, name: "Acme Holdings", logoUrl: null, industry: "technology", role: "founder" };
const globex: CompanySummary = { id: 2, name: "Globex Corporation International", logoUrl: null, industry: "finance", role: "member" };

/** Serves the company list and counts how often it was fetched. */
function serveCompanies(companies: CompanySummary[]) {
  const calls = { list: 0 };
  server.use(
    handle(companiesApi.listCompanies, () => {
      calls.list += 1;
      return companies;
    }),
  );
  return calls;
}

// The pages of this feature only: other features' pages make requests of their own.
const onboarding = "/company-onboarding";

async function sidebar() {
  return screen.findByRole("complementary", { name: "Sidebar" });
}

describe("shouldShowCompanySwitcher", () => {
  it("shows for more than one company or for a platform admin", () => {
    expect(shouldShowCompanySwitcher(0, false)).toBe(false);
    expect(shouldShowCompanySwitcher(1, false)).toBe(false);
    expect(shouldShowCompanySwitcher(2, false)).toBe(true);
    expect(shouldShowCompanySwitcher(1, true)).toBe(true);
    expect(shouldShowCompanySwitcher(0, true)).toBe(true);
  });
});

describe("company switcher", () => {
  it("with one company: no switcher, the company's name and an Add Company link", async () => {
    serveCompanies([acme]);
    renderApp({ signedInAs: buildUser({ companyId: 1 }), path: onboarding });
    const aside = await sidebar();
    const block = await within(aside).findByTestId("current-company");
    expect(within(block).getByText("Acme Holdings")).toBeInTheDocument();
    expect(within(block).getByRole("link", { name: "Add Company" })).toHaveAttribute("href", "/company-onboarding");
    expect(within(aside).queryByTestId("company-switcher")).not.toBeInTheDocument();
  });

  it("shows nothing to a user without a company", async () => {
    serveCompanies([]);
    const view = renderApp({ signedInAs: buildUser({ companyId: null, role: null }), path: "/company-onboarding" });
    const aside = await sidebar();
    await waitFor(() => expect(view.queryClient.getQueryState(companyKeys.list())?.status).toBe("success"));
    expect(within(aside).queryByTestId("current-company")).not.toBeInTheDocument();
    expect(within(aside).queryByTestId("company-switcher")).not.toBeInTheDocument();
  });

  it("appears for a platform admin with a single company", async () => {
    serveCompanies([acme]);
    renderApp({ signedInAs: buildUser({ companyId: 1 }), isPlatformAdmin: true, path: onboarding });
    const aside = await sidebar();
    expect(await within(aside).findByTestId("company-switcher")).toHaveTextContent("Acme Holdings");
  });

  it("refetches the list on open, switches, refetches the user and says so", async () => {
    const calls = serveCompanies([acme, globex]);
    let user: User = buildUser({ id: 7, companyId: 1, role: "founder" });
    const requests = { user: 0, patchBody: null as unknown };
    server.use(
      handle(authApi.currentUser, () => {
        requests.user += 1;
        return user;
      }),
      handle(
        companiesApi.switchActiveCompany,
        ({ body }) => {
          requests.patchBody = body;
          user = { ...user, companyId: 2, role: "member" };
          return user;
        },
        { params: { id: 7 } },
      ),
    );
    const view = renderApp({ token: TEST_TOKEN, path: onboarding });
    const trigger = await within(await sidebar()).findByTestId("company-switcher");
    expect(trigger).toHaveTextContent("Acme Holdings");
    const listCallsBefore = calls.list;
    const userCallsBefore = requests.user;

    await view.user.click(trigger);
    const menu = await screen.findByRole("menu");
    await waitFor(() => expect(calls.list).toBe(listCallsBefore + 1));
    expect(
      within(menu)
        .getAllByRole("menuitem")
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining("Acme Holdings"), expect.stringContaining("Globex Corporation International"), "Add Company"]);

    await view.user.click(within(menu).getByRole("menuitem", { name: /Globex/ }));
    expect(within(await findToast("Company changed")).getByText("Successfully switched company")).toBeInTheDocument();
    expect(requests.patchBody).toEqual({ companyId: 2 });
    await waitFor(() => expect(requests.user).toBeGreaterThan(userCallsBefore));
    await waitFor(() => expect(screen.getByTestId("company-switcher")).toHaveTextContent("Globex Corporation International"));
    // The new role applies at once: a member has no Company Settings entry.
    expect(within(await sidebar()).queryByRole("link", { name: "Company Settings" })).not.toBeInTheDocument();
  });

  it("says 'Failed to switch company' when the switch is refused", async () => {
    serveCompanies([acme, globex]);
    server.use(handle(companiesApi.switchActiveCompany, () => apiError(403, "You are not a member of this company")));
    const view = renderApp({ signedInAs: buildUser({ id: 8, companyId: 1 }), path: onboarding });
    await view.user.click(await within(await sidebar()).findByTestId("company-switcher"));
    await view.user.click(await screen.findByRole("menuitem", { name: /Globex/ }));
    expect(within(await findToast("Error")).getByText("Failed to switch company")).toBeInTheDocument();
    expect(screen.getByTestId("company-switcher")).toHaveTextContent("Acme Holdings");
  });

  it("'Add Company' leads to /company-onboarding", async () => {
    serveCompanies([acme, globex]);
    server.use(handle(companiesApi.listMembers, () => [], { params: { companyId: 1 } }));
    const view = renderApp({ signedInAs: buildUser({ companyId: 1 }), path: "/board-members" });
    await view.user.click(await within(await sidebar()).findByTestId("company-switcher"));
    await view.user.click(await screen.findByRole("menuitem", { name: "Add Company" }));
    await waitFor(() => expect(view.currentPath()).toBe("/company-onboarding"));
  });
});
