import { screen } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import type { Company } from "@shared/companies";
import { buildCompany, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";

const company = buildCompany({ industry: "energy" });
const ownFactorFirst = "Set up two-factor sign-in for yourself first";

/** Company Settings → General as a founder; the server keeps the company and refuses the requirement unless `allowed`. */
async function openGeneral({ allowed, required = false }: { allowed: boolean; required?: boolean }) {
  let current = { ...company, requireSecondFactor: required };
  const bodies: unknown[] = [];
  server.use(
    handle(companiesApi.getCompanySettings, () => ({ company: current, members: [], invitations: [] }), { params: { companyId: 1 } }),
    handle(
      companiesApi.updateCompany,
      ({ body }) => {
        bodies.push(body);
        if (body.requireSecondFactor && !allowed) {
          return apiError(400, { message: ownFactorFirst, errors: [{ path: "requireSecondFactor", message: ownFactorFirst }] });
        }
        current = { ...current, ...body } as Company;
        return current;
      },
      { params: { companyId: 1 } },
    ),
  );
  const view = renderApp({ signedInAs: buildUser({ id: 1, companyId: 1, role: "founder" }), path: "/company-settings" });
  const toggle = await screen.findByRole("switch", { name: "Require two-factor sign-in" });
  return { ...view, toggle, bodies };
}

describe("Require two-factor sign-in in Company Settings → General", () => {
  it("says what it means and saves it with the profile", async () => {
    const { user, toggle, bodies } = await openGeneral({ allowed: true });
    expect(toggle).toHaveAttribute("aria-checked", "false");
    expect(toggle).toHaveAccessibleDescription(/Members without a second factor .* must set one up before they can open the company/);

    await user.click(toggle);
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    await findToast("Company updated");
    expect(bodies).toEqual([expect.objectContaining({ name: "Acme Holdings", requireSecondFactor: true })]);
    expect(await screen.findByRole("switch", { name: "Require two-factor sign-in", checked: true })).toBeInTheDocument();
  });

  it("reads on for a company that requires it, and turning it off saves that", async () => {
    const { user, toggle, bodies } = await openGeneral({ allowed: true, required: true });
    expect(toggle).toHaveAttribute("aria-checked", "true");
    await user.click(toggle);
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    await findToast("Company updated");
    expect(bodies).toEqual([expect.objectContaining({ requireSecondFactor: false })]);
  });

  it("shows the server's refusal under the switch for a founder without a second factor", async () => {
    const { user, toggle } = await openGeneral({ allowed: false });
    await user.click(toggle);
    await user.click(screen.getByRole("button", { name: "Save Changes" }));

    await findToast("Update failed");
    expect(await screen.findByText(ownFactorFirst)).toBeInTheDocument();
    expect(screen.getByRole("switch", { name: "Require two-factor sign-in" })).toHaveAccessibleDescription(
      expect.stringContaining(ownFactorFirst) as unknown as string,
    );
  });
});
