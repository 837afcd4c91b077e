import { screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import type { Company, CompanyProfileInput } from "@shared/companies";
import { buildCompany, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

function serveCompany(fields: Partial<Company> = {}) {
  const state = { company: buildCompany(fields), sent: [] as CompanyProfileInput[] };
  server.use(
    handle(companiesApi.getCompanySettings, () => ({ company: state.company, members: [], invitations: [] }), { params: { companyId: 1 } }),
    handle(
      companiesApi.updateCompany,
      ({ body }) => {
        state.sent.push(body);
        state.company = { ...state.company, ...body } as Company;
        return state.company;
      },
      { params: { companyId: 1 } },
    ),
  );
  return state;
}

async function openGovernance(role: "founder" | "admin" = "founder") {
  const view = renderApp({ signedInAs: buildUser({ id: 1, companyId: 1, role }), path: "/company-settings" });
  const form = await screen.findByRole("form", { name: "Governance" }, { timeout: 15_000 });
  return { ...view, form };
}

describe("Company Settings' Governance", () => {
  it("shows the rule for written resolutions in words, and saves a majority rule with its lapse, withdrawal and meeting share", async () => {
    const state = serveCompany();
    const { form, user } = await openGovernance("admin");
    expect(within(form).getByRole("radio", { name: /Unanimous/ })).toBeChecked();
    expect(within(form).getByRole("textbox", { name: "Lapse period (days)" })).toHaveValue("28");
    expect(within(form).getByRole("switch", { name: "Withdrawal allowed" })).toBeChecked();
    // Unanimous: no meeting share to set.
    expect(within(form).queryByRole("textbox", { name: /Meeting demand/ })).not.toBeInTheDocument();
    expect(
      within(form).getByText(/every eligible director must agree; lapses after 28 days; signatures may be withdrawn\./),
    ).toBeInTheDocument();

    await user.click(within(form).getByRole("radio", { name: /Majority/ }));
    const share = within(form).getByRole("textbox", { name: "Meeting demand (% of eligible directors)" });
    expect(share).toHaveValue("33");
    await user.clear(share);
    await user.type(share, "25");
    const lapse = within(form).getByRole("textbox", { name: "Lapse period (days)" });
    await user.clear(lapse);
    await user.type(lapse, "14");
    await user.click(within(form).getByRole("switch", { name: "Withdrawal allowed" }));
    expect(
      within(form).getByText(
        /more than half of the eligible directors must agree, and 25% of them may ask for a meeting instead; lapses after 14 days; signatures may not be withdrawn\./,
      ),
    ).toBeInTheDocument();
    await user.click(within(form).getByRole("button", { name: "Save governance" }));

    await waitFor(() => expect(state.sent).toHaveLength(1));
    expect(state.sent[0]).toEqual({
      name: "Acme Holdings",
      industry: "technology",
      location: "London, United Kingdom",
      stage: "seed",
      writtenResolutionRule: "majority",
      writtenLapseDays: 14,
      writtenAllowWithdrawal: false,
      writtenMeetingDemandPercent: 25,
      readReceipts: true,
      notesRetentionDays: null,
      searchLanguage: "english",
    });
    expect(await findToast("Governance updated")).toBeInTheDocument();
  });

  it("refuses a lapse period outside 1–90 days with the rule's message, and shows the server's refusal under its field", async () => {
    const state = serveCompany();
    const { form, user } = await openGovernance();
    const lapse = within(form).getByRole("textbox", { name: "Lapse period (days)" });
    await user.clear(lapse);
    await user.type(lapse, "91");
    await user.click(within(form).getByRole("button", { name: "Save governance" }));
    expect(await within(form).findByText("Lapse period must be a whole number of days from 1 to 90")).toBeInTheDocument();
    expect(lapse).toHaveAttribute("aria-invalid", "true");
    expect(state.sent).toEqual([]);

    server.use(
      handle(companiesApi.updateCompany, () =>
        apiError(400, { message: "Invalid input", errors: [{ path: "writtenLapseDays", message: "Not while a resolution is open" }] }),
      ),
    );
    await user.clear(lapse);
    await user.type(lapse, "30");
    await user.click(within(form).getByRole("button", { name: "Save governance" }));
    expect(await within(form).findByText("Not while a resolution is open")).toBeInTheDocument();
  });

  it("saves read receipts off and notes deleted N days after the minutes are approved, with the range's message", async () => {
    const state = serveCompany();
    const { form, user } = await openGovernance();
    const receipts = within(form).getByRole("switch", { name: "Read receipts" });
    expect(receipts).toBeChecked();
    expect(
      within(form).getByText("The secretary sees which directors have opened the pack and each paper — never pages or time."),
    ).toBeInTheDocument();
    expect(within(form).getByRole("radio", { name: /Keep notes/ })).toBeChecked();
    expect(within(form).queryByRole("textbox", { name: "Days after the minutes are approved" })).not.toBeInTheDocument();

    await user.click(receipts);
    await user.click(within(form).getByRole("radio", { name: /Delete after the minutes are approved/ }));
    const days = within(form).getByRole("textbox", { name: "Days after the minutes are approved" });
    await user.type(days, "3651");
    await user.click(within(form).getByRole("button", { name: "Save governance" }));
    expect(await within(form).findByText(/from 1 to 3650/)).toBeInTheDocument();
    expect(state.sent).toEqual([]);

    await user.clear(days);
    await user.type(days, "90");
    await user.click(within(form).getByRole("button", { name: "Save governance" }));
    await waitFor(() => expect(state.sent).toHaveLength(1));
    expect(state.sent[0]).toMatchObject({ readReceipts: false, notesRetentionDays: 90, writtenLapseDays: 28 });

    // Back to keeping notes: null, whatever the number said.
    await user.click(within(form).getByRole("radio", { name: /Keep notes/ }));
    await user.click(within(form).getByRole("button", { name: "Save governance" }));
    await waitFor(() => expect(state.sent).toHaveLength(2));
    expect(state.sent[1]).toMatchObject({ readReceipts: false, notesRetentionDays: null });
  });

  it("offers the search's languages by name and saves the one chosen as searchLanguage", async () => {
    const state = serveCompany({ searchLanguage: "french" });
    const { form, user } = await openGovernance();
    const language = within(form).getByRole("combobox", { name: "Search language" });
    expect(language).toHaveTextContent("French");
    await user.click(language);
    const options = (await screen.findAllByRole("option")).map((option) => option.textContent);
    expect(options).toHaveLength(12);
    expect(options.slice(0, 3)).toEqual(["English", "Danish", "Dutch"]);
    expect(options.at(-1)).toBe("Simple (no stemming)");
    await user.click(screen.getByRole("option", { name: "Simple (no stemming)" }));
    await user.click(within(form).getByRole("button", { name: "Save governance" }));

    await waitFor(() => expect(state.sent).toHaveLength(1));
    expect(state.sent[0]).toMatchObject({ searchLanguage: "simple" });
    await waitFor(() => expect(within(form).getByRole("combobox", { name: "Search language" })).toHaveTextContent("Simple (no stemming)"));
  });
});
