import { screen, within } from "@testing-library/react";
import * as documentsApi from "@shared/api/documents";
import type { Comparison, DocumentVersion } from "@shared/paper-versions";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { buildFileDocument } from "@/testing/meeting-fixtures";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

const me = buildUser({ id: 7, companyId: 3, role: "member" });
const version = (number: number): DocumentVersion => ({
  version: number,
  uploadedBy: "Ann Lee",
  uploadedAt: "2026-06-02T14:05:00.000Z",
  note: null,
  fileSize: 100,
  fileType: "application/pdf",
  pages: 4,
});

function servePaper(
  latest = 3,
  compare: (from: number, to: number) => Comparison | ReturnType<typeof apiError> = () => ({ changed: true }),
) {
  const asked: string[] = [];
  server.use(
    handle(documentsApi.getDocument, () => buildFileDocument({ id: 5, name: "Budget.pdf", version: latest }), { params: { id: 5 } }),
    handle(documentsApi.listVersions, () => Array.from({ length: latest }, (_, index) => version(latest - index))),
    handle(documentsApi.compareVersions, ({ query }) => {
      asked.push(`${query.from}→${query.to}`);
      return compare(query.from, query.to);
    }),
  );
  return asked;
}

describe("/documents/:id/compare", () => {
  it("compares the version before the latest with the latest by default, page by page, folding unchanged pages", async () => {
    const asked = servePaper(3, () => ({
      pages: [
        { fromPage: 1, toPage: 1, change: "same" },
        { fromPage: 2, toPage: null, change: "removed" },
        { fromPage: 3, toPage: 2, change: "same" },
        { fromPage: 4, toPage: 3, change: "same" },
        {
          fromPage: 5,
          toPage: 4,
          change: "changed",
          lines: [
            { op: "same", text: "Revenue" },
            { op: "del", text: "£1.2m" },
            { op: "add", text: "£1.4m" },
          ],
        },
        { fromPage: null, toPage: 5, change: "added", lines: [{ op: "add", text: "Appendix" }] },
      ],
    }));
    renderApp({ path: "/documents/5/compare", signedInAs: me });
    expect(await screen.findByRole("heading", { level: 1, name: "What changed: Budget.pdf" })).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Page 4 changed" })).toBeInTheDocument();
    expect(asked).toEqual(["2→3"]);
    expect(screen.getByLabelText("From version")).toHaveValue("2");
    expect(screen.getByLabelText("To version")).toHaveValue("3");
    expect(screen.getByRole("heading", { name: "Page 2 removed" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Page 5 added" })).toBeInTheDocument();
    expect(screen.getByText("Page 1 unchanged")).toBeInTheDocument();
    expect(screen.getByText("Pages 2–3 unchanged")).toBeInTheDocument();
    // The change is said in words, not by colour alone.
    const removed = screen.getByText("£1.2m").closest("del")!;
    expect(removed).toHaveTextContent("Removed: £1.2m");
    expect(screen.getByText("£1.4m").closest("ins")).toHaveTextContent("Added: £1.4m");
  });

  it("follows the pickers and the address, and shows a text file's lines with long unchanged runs folded", async () => {
    const same = Array.from({ length: 10 }, (_, index) => ({ op: "same" as const, text: `Line ${index + 1}` }));
    const asked = servePaper(3, () => ({ lines: [...same, { op: "add", text: "New closing line" }] }));
    const { user, currentPath } = renderApp({ path: "/documents/5/compare?from=1&to=3", signedInAs: me });
    expect(await screen.findByText("New closing line")).toBeInTheDocument();
    expect(screen.getByText("8 unchanged lines")).toBeInTheDocument();
    expect(screen.getByText("Line 10")).toBeVisible();
    await user.selectOptions(screen.getByLabelText("From version"), "2");
    expect(currentPath()).toBe("/documents/5/compare?from=2&to=3");
    await screen.findByText("New closing line");
    expect(asked).toEqual(["1→3", "2→3"]);
  });

  it("says when the file changed but cannot be compared, and when nothing changed", async () => {
    servePaper(2, (from) => ({ changed: from === 1 }));
    const { unmount } = renderApp({ path: "/documents/5/compare?from=1&to=2", signedInAs: me });
    expect(await screen.findByText(/The file changed/)).toBeInTheDocument();
    unmount();
    renderApp({ path: "/documents/5/compare?from=2&to=1", signedInAs: me });
    expect(await screen.findByText("Nothing changed between these versions.")).toBeInTheDocument();
  });

  it("asks for two different versions, and says when the paper has only one", async () => {
    const asked = servePaper(3);
    const { unmount } = renderApp({ path: "/documents/5/compare?from=3&to=3", signedInAs: me });
    expect(await screen.findByText("Choose two different versions to compare.")).toBeInTheDocument();
    expect(asked).toEqual([]);
    unmount();
    servePaper(1);
    renderApp({ path: "/documents/5/compare", signedInAs: me });
    expect(await screen.findByText("This paper has only one version: nothing to compare yet.")).toBeInTheDocument();
    expect(screen.queryByLabelText("From version")).not.toBeInTheDocument();
  });

  it("shows the loading state, then an error with a retry", async () => {
    let failing = true;
    servePaper(3, () => (failing ? apiError(503, "Still reading") : { changed: true }));
    const { user } = renderApp({ path: "/documents/5/compare", signedInAs: me });
    expect(await screen.findByRole("status", { name: /Loading the paper|Comparing versions/ })).toBeInTheDocument();
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("The versions' text is still being read. Try again in a moment.")).toBeInTheDocument();
    failing = false;
    await user.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText(/The file changed/)).toBeInTheDocument();
  });

  it("says a paper that is not the viewer's does not exist", async () => {
    server.use(
      handle(documentsApi.getDocument, () => apiError(404, "Document not found")),
      handle(documentsApi.listVersions, () => apiError(404, "Document not found")),
    );
    renderApp({ path: "/documents/6/compare", signedInAs: me });
    expect(await screen.findByText("This paper does not exist, or is not yours to see.")).toBeInTheDocument();
  });
});
