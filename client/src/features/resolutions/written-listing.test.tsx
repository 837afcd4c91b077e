import { screen, waitFor, within } from "@testing-library/react";
import * as companiesApi from "@shared/api/companies";
import * as documentsApi from "@shared/api/documents";
import * as resolutionsApi from "@shared/api/resolutions";
import { freezeDateAt } from "@/testing/clock";
import { buildCompany } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { runInTimeZone } from "@/testing/time-zone";
import { at, buildResolution, me, now, serve } from "@/testing/resolution-fixtures";

runInTimeZone("UTC");
freezeDateAt(now);

describe("the Resolutions screen with written resolutions", () => {
  it("lists written and voted resolutions together, each marked by its procedure, and shows 'Referred to a meeting'", async () => {
    serve([
      buildResolution({ id: 1, title: "Vote on the auditor" }),
      buildResolution({
        id: 2,
        title: "Adopt the budget",
        procedure: "written",
        description: "# Budget\n\nRESOLVED, that **it** is adopted:\n\n- capex",
        textSha256: "ab",
        lapsesAt: at(86_400_000 * 3),
        deadline: at(86_400_000 * 3),
      }),
      buildResolution({
        id: 3,
        title: "Sell the building",
        procedure: "written",
        status: "referred",
        explanation: "Referred to a meeting: 2 of 5 eligible directors asked for a meeting, at least 33%",
      }),
    ]);
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    const pending = await screen.findByRole("tabpanel", { name: "Pending" }, { timeout: 15_000 });
    const vote = await within(pending).findByRole("article", { name: "Vote on the auditor" });
    expect(within(vote).getByText("Vote")).toBeInTheDocument();
    expect(within(vote).getByRole("button", { name: "Cast Your Vote" })).toBeInTheDocument();
    const written = within(pending).getByRole("article", { name: "Adopt the budget" });
    expect(within(written).getByText("Written")).toBeInTheDocument();
    expect(within(written).getByText("Written resolution · Lapses: June 4, 2026")).toBeInTheDocument();
    // Its text in the list: the words without the Markdown's marks.
    expect(within(written).getByText("Budget RESOLVED, that it is adopted: capex")).toBeInTheDocument();
    // A written resolution has no vote counts and is signed in its details.
    expect(within(written).queryByText("Yes")).not.toBeInTheDocument();
    expect(within(written).queryByRole("button", { name: "Cast Your Vote" })).not.toBeInTheDocument();
    expect(within(written).getByRole("button", { name: "Read and sign" })).toBeInTheDocument();

    await user.click(screen.getByRole("tab", { name: "Completed" }));
    const completed = await screen.findByRole("tabpanel", { name: "Completed" });
    const referred = within(completed).getByRole("article", { name: "Sell the building" });
    expect(within(referred).getByText("Referred to a meeting")).toBeInTheDocument();
    expect(within(referred).getByText("Written")).toBeInTheDocument();
  });
});

describe("New Resolution decided in writing", () => {
  it("asks for the title and the exact text only, previews it rendered, says when it lapses, and sends no type or deadline", async () => {
    serve([]);
    server.use(
      handle(documentsApi.listLibrary, () => []),
      handle(companiesApi.getCompanySettings, () => ({ company: buildCompany({ id: 3, writtenLapseDays: 14 }), members: [] }), {
        params: { companyId: 3 },
      }),
    );
    const sent: unknown[] = [];
    server.use(
      handle(resolutionsApi.createResolution, ({ body }) => {
        sent.push(body);
        return buildResolution({ id: 70, title: body.title, procedure: "written" });
      }),
    );
    const { user } = renderApp({ path: "/resolutions", signedInAs: me });
    await user.click(await screen.findByRole("button", { name: "New Resolution" }, { timeout: 15_000 }));
    const dialog = await screen.findByRole("dialog", { name: "New Resolution" });
    expect(within(dialog).getByRole("radio", { name: "Online vote" })).toBeChecked();
    // Each choice is named by its label; its hint describes it (so "the exact text" names only the text field).
    const writtenChoice = within(dialog).getByRole("radio", { name: "Written resolution" });
    expect(writtenChoice).toHaveAccessibleDescription("Each director signs the exact text; decided by the board's rule.");
    await user.click(writtenChoice);
    expect(within(dialog).queryByRole("combobox", { name: "Type" })).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText("Deadline")).not.toBeInTheDocument();
    expect(
      await within(dialog).findByText(
        /under the company's rule, every eligible director must agree; lapses after 14 days\. Proposed now, it lapses on June 15, 2026 at 3:00 PM/,
      ),
    ).toBeInTheDocument();

    await user.type(within(dialog).getByRole("textbox", { name: "Title" }), "Adopt the budget");
    await user.type(
      within(dialog).getByRole("textbox", { name: "The exact text" }),
      "## Budget{Enter}{Enter}RESOLVED, that **it** is adopted.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Preview" }));
    const preview = within(dialog).getByRole("region", { name: "Preview of the text" });
    expect(within(preview).getByRole("heading", { name: "Budget" })).toBeInTheDocument();
    expect(within(preview).getByText("it").tagName).toBe("STRONG");
    await user.click(within(dialog).getByRole("button", { name: "Edit the text" }));
    await user.click(within(dialog).getByRole("button", { name: "Create Resolution" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      title: "Adopt the budget",
      description: "## Budget\n\nRESOLVED, that **it** is adopted.",
      procedure: "written",
      documentIds: [],
      status: "pending",
    });
  });
});

describe("the dashboard's pending panel", () => {
  it("asks for the signature of a written resolution awaiting it, linking to it", async () => {
    server.use(
      handle(
        resolutionsApi.pendingResolutions,
        () => [
          {
            id: 81,
            title: "Adopt the budget",
            createdAt: "2026-05-20T15:00:00.000Z",
            deadline: "2026-06-17T15:00:00.000Z",
            procedure: "written",
            awaitingYourSignature: true,
          },
          {
            id: 82,
            title: "Appoint the auditor",
            createdAt: "2026-05-20T15:00:00.000Z",
            deadline: "2026-06-17T15:00:00.000Z",
            procedure: "written",
            awaitingYourSignature: false,
          },
        ],
        { params: { companyId: 3 } },
      ),
    );
    renderApp({ path: "/", signedInAs: me });
    const panel = await screen.findByRole("region", { name: "Pending Resolutions" });
    await within(panel).findByText("Adopt the budget");
    expect(within(panel).getByRole("link", { name: "Awaiting your signature: Adopt the budget" })).toHaveAttribute(
      "href",
      "/resolutions/81",
    );
    expect(within(panel).getByRole("link", { name: "View: Appoint the auditor" })).toHaveAttribute("href", "/resolutions/82");
    expect(within(panel).getAllByText("Written resolution • Lapses: June 17, 2026")).toHaveLength(2);
  });
});
