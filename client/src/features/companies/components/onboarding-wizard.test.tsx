import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { delay } from "msw";
import * as companiesApi from "@shared/api/companies";
import type { Company } from "@shared/companies";
import { buildCompany, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast } from "@/testing/toasts";
import { clampStep, firstStepWithError, onboardingProgress } from "@/features/companies/components/onboarding-wizard";

const newUser = () => buildUser({ id: 42, companyId: null, role: null });

function company(fields: Partial<Company> = {}): Company {
  return buildCompany({
    id: 9,
    name: "Initech",
    industry: "media",
    location: "Austin, USA",
    stage: "series-c",
    employeeCount: "51-200",
    createdAt: "2026-06-01T09:00:00.000Z",
    ...fields,
  });
}

async function renderWizard() {
  const view = renderApp({ signedInAs: newUser(), path: "/company-onboarding" });
  await screen.findByRole("form", { name: "Company setup" });
  return view;
}

const badge = () => screen.getByText(/^Step \d of 3$/);
const progress = () => screen.getByRole("progressbar");

async function choose(view: Awaited<ReturnType<typeof renderWizard>>, label: string, option: string) {
  await view.user.click(screen.getByRole("combobox", { name: label }));
  await view.user.click(await screen.findByRole("option", { name: option }));
}

describe("wizard step rules", () => {
  it("never goes below 1 or above 3, with progress 33/66/100", () => {
    expect([0, 1, 2, 3, 4].map(clampStep)).toEqual([1, 1, 2, 3, 3]);
    expect(([1, 2, 3] as const).map(onboardingProgress)).toEqual([33, 66, 100]);
    expect(firstStepWithError({ website: {}, logoUrl: {} })).toBe(2);
    expect(firstStepWithError({ logoUrl: {}, name: {} })).toBe(1);
    expect(firstStepWithError({})).toBeNull();
  });
});

describe("company onboarding", () => {
  it("sends a user without a company from / to the wizard", async () => {
    const view = renderApp({ signedInAs: newUser(), path: "/" });
    await screen.findByRole("form", { name: "Company setup" });
    expect(view.currentPath()).toBe("/company-onboarding");
  });

  it("moves through three steps with Next Step and Back, without validating", async () => {
    const view = await renderWizard();
    expect(badge()).toHaveTextContent("Step 1 of 3");
    expect(progress()).toHaveAttribute("aria-valuenow", "33");
    expect(screen.getByRole("button", { name: "Back" })).toBeDisabled();
    expect(screen.getByLabelText("Company name")).toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    expect(badge()).toHaveTextContent("Step 2 of 3");
    expect(progress()).toHaveAttribute("aria-valuenow", "66");
    expect(screen.getByLabelText("City")).toBeInTheDocument();
    expect(screen.queryByText("Company name is required")).not.toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    expect(badge()).toHaveTextContent("Step 3 of 3");
    expect(progress()).toHaveAttribute("aria-valuenow", "100");
    expect(screen.queryByRole("button", { name: "Next Step" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Complete Setup" })).toBeInTheDocument();
    expect(screen.getByText(/512x512px or larger/)).toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Back" }));
    expect(badge()).toHaveTextContent("Step 2 of 3");
  });

  it("validates at 'Complete Setup' and returns to the first step with a problem", async () => {
    let posted = false;
    server.use(
      handle(companiesApi.createCompany, () => {
        posted = true;
        return company();
      }),
    );
    const view = await renderWizard();
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    await view.user.type(screen.getByLabelText("Website"), "not a url");
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    const review = screen.getByRole("region", { name: "Review" });
    expect(within(review).getAllByText("Not specified")).toHaveLength(5);
    await view.user.click(screen.getByRole("button", { name: "Complete Setup" }));

    expect(await screen.findByText("Company name is required")).toBeInTheDocument();
    expect(badge()).toHaveTextContent("Step 1 of 3");
    expect(screen.getByText("Industry is required")).toBeInTheDocument();
    expect(screen.getByText("Funding stage is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Company name")).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(screen.getByLabelText("Company name")).toHaveFocus());

    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    expect(screen.getByText("Location is required")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid URL")).toBeInTheDocument();
    expect(posted).toBe(false);
  });

  it("returns to a later step with a problem and focuses its first field with one", async () => {
    const view = await renderWizard();
    await view.user.type(screen.getByLabelText("Company name"), "Initech");
    await choose(view, "Industry", "Media & Entertainment");
    await choose(view, "Funding stage", "Series C or later");
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    await view.user.type(screen.getByLabelText("Website"), "not a url");
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    await view.user.click(screen.getByRole("button", { name: "Complete Setup" }));

    expect(await screen.findByText("Location is required")).toBeInTheDocument();
    expect(badge()).toHaveTextContent("Step 2 of 3");
    await waitFor(() => expect(screen.getByLabelText("City")).toHaveFocus());
  });

  it("refuses a logo that is not an image or is over 2 MB, and previews a good one", async () => {
    const view = await renderWizard();
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    const input = screen.getByLabelText("Company logo");

    // A browser's file dialog can be told to show all files: the accept attribute is no guarantee.
    await userEvent.setup({ applyAccept: false }).upload(input, new File(["%PDF-1.4"], "minutes.pdf", { type: "application/pdf" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The logo must be an image file");

    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], "huge.png", { type: "image/png" });
    await view.user.upload(input, big);
    expect(await screen.findByRole("alert")).toHaveTextContent("The logo must be 2 MB or smaller");

    await view.user.upload(input, new File([new Uint8Array([137, 80, 78, 71])], "logo.png", { type: "image/png" }));
    await waitFor(() => expect(screen.queryByRole("alert")).not.toBeInTheDocument());
    const preview = document.querySelector<HTMLImageElement>("img[src^='data:image/png;base64,']");
    expect(preview).not.toBeNull();
    expect(screen.getByRole("button", { name: "Company logo: Change logo" })).toBeInTheDocument();
  });

  it("creates the company, links the user, and shows 'Setup Complete!'", async () => {
    let postedBody: unknown;
    let linkBody: unknown;
    server.use(
      handle(companiesApi.createCompany, async ({ body }) => {
        postedBody = body;
        await delay(50);
        return company();
      }),
      handle(
        companiesApi.linkUserToCompany,
        ({ body }) => {
          linkBody = body;
          return buildUser({ id: 42, companyId: 9, role: "founder" });
        },
        { params: { id: 42 } },
      ),
    );
    const view = await renderWizard();
    await view.user.type(screen.getByLabelText("Company name"), "Initech");
    await choose(view, "Industry", "Media & Entertainment");
    await choose(view, "Funding stage", "Series C or later");
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    await view.user.type(screen.getByLabelText("City"), "Austin");
    await view.user.type(screen.getByLabelText("Country"), "USA");
    await choose(view, "Number of employees", "51-200");
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));

    const review = screen.getByRole("region", { name: "Review" });
    expect(within(review).getByText("Initech")).toBeInTheDocument();
    expect(within(review).getByText("Media & Entertainment")).toBeInTheDocument();
    expect(within(review).getByText("Austin, USA")).toBeInTheDocument();
    expect(within(review).getByText("51-200 employees")).toBeInTheDocument();

    await view.user.click(screen.getByRole("button", { name: "Complete Setup" }));
    expect(await screen.findByRole("button", { name: "Creating..." })).toBeDisabled();
    expect(await screen.findByRole("heading", { name: "Setup Complete!" })).toBeInTheDocument();
    await findToast("Company created");
    expect(postedBody).toEqual({
      name: "Initech",
      industry: "media",
      stage: "series-c",
      location: "Austin, USA",
      description: null,
      website: null,
      employeeCount: "51-200",
      logoUrl: null,
    });
    expect(linkBody).toEqual({ companyId: 9 });
    expect(screen.getByText("Media & Entertainment • Series C or later")).toBeInTheDocument();
    const toDashboard = screen.getByRole("link", { name: "Go to Dashboard" });
    expect(toDashboard).toHaveAttribute("href", "/");
  });

  it("says 'Failed to create company. Please try again.' when creation fails", async () => {
    server.use(handle(companiesApi.createCompany, () => apiError(500, "Internal error")));
    const view = await renderWizard();
    await view.user.type(screen.getByLabelText("Company name"), "Initech");
    await choose(view, "Industry", "Energy");
    await choose(view, "Funding stage", "Seed");
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    await view.user.type(screen.getByLabelText("Country"), "Kenya");
    await view.user.click(screen.getByRole("button", { name: "Next Step" }));
    await view.user.click(screen.getByRole("button", { name: "Complete Setup" }));
    expect(within(await findToast("Error")).getByText("Failed to create company. Please try again.")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Setup Complete!" })).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Complete Setup" })).toBeEnabled();
  });
});
