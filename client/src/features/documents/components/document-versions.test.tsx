import { screen, waitFor, within } from "@testing-library/react";
import * as documentsApi from "@shared/api/documents";
import type { LibraryDocument } from "@shared/documents";
import type { DocumentVersion } from "@shared/paper-versions";
import type { CompanyRole } from "@shared/roles";
import { apiUrl } from "@/lib/api-client";
import { buildFileDocument } from "@/testing/meeting-fixtures";
import { buildLibraryDocument, buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast, findToastBehindModal } from "@/testing/toasts";

const companyId = 3;
const userAs = (role: CompanyRole, id = 7) => buildUser({ id, companyId, role });

const replaced = buildLibraryDocument({
  id: 1,
  name: "Q2 Accounts.pdf",
  companyId,
  uploadedBy: 8,
  version: 3,
  // 14:05 in the machine's zone (UTC).
  replacedAt: "2026-06-02T14:05:00.000Z",
  pages: 12,
  readingMinutes: 24,
  changedSinceRead: true,
  // Read at version 1, two replacements ago.
  readVersion: 1,
});
const mine = buildLibraryDocument({ id: 2, name: "My memo.pdf", companyId, uploadedBy: 7, uploader: "Ann Lee" });

function serveLibrary(documents: LibraryDocument[] = [replaced, mine]) {
  server.use(handle(documentsApi.listLibrary, () => documents));
}

const versions: DocumentVersion[] = [
  {
    version: 2,
    uploadedBy: "Ann Lee",
    uploadedAt: "2026-06-02T14:05:00.000Z",
    note: "Updated the cash forecast",
    fileSize: 2048,
    fileType: "application/pdf",
    pages: 12,
  },
  {
    version: 1,
    uploadedBy: null,
    uploadedAt: "2026-05-20T10:00:00.000Z",
    note: null,
    fileSize: 1024,
    fileType: "application/pdf",
    pages: 11,
  },
];

describe("a paper's versions in the library", () => {
  it("shows the version, when it was replaced, its pages and reading time, and a flag linking to what changed since the version read", async () => {
    serveLibrary();
    renderApp({ path: "/documents", signedInAs: userAs("member") });
    expect(await screen.findByText("v3 · replaced 2 Jun 14:05")).toBeInTheDocument();
    expect(screen.getByText("12 pages · 24 min")).toBeInTheDocument();
    const flag = screen.getByRole("link", { name: "Q2 Accounts.pdf changed since you read it: see what changed" });
    expect(flag).toHaveTextContent("Changed since you read it");
    // From the version the director read (1), not the one before the latest (2).
    expect(flag).toHaveAttribute("href", "/documents/1/compare?from=1&to=3");
    // A first version read or not: no version line, no flag.
    expect(screen.getAllByRole("link", { name: /changed since you read it/ })).toHaveLength(1);
    expect(screen.queryByText(/^v1/)).not.toBeInTheDocument();
  });

  it("offers Replace to the paper's uploader, founders and admins, never to observers or other members", async () => {
    serveLibrary();
    const { unmount } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    expect(await screen.findByRole("button", { name: "Replace My memo.pdf" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Replace Q2 Accounts.pdf" })).not.toBeInTheDocument();
    unmount();
    for (const role of ["founder", "admin"] as const) {
      const view = renderApp({ path: "/documents", signedInAs: userAs(role, 9) });
      expect(await screen.findByRole("button", { name: "Replace Q2 Accounts.pdf" })).toBeInTheDocument();
      view.unmount();
    }
    renderApp({ path: "/documents", signedInAs: userAs("observer") });
    await screen.findByText("My memo.pdf");
    expect(screen.queryByRole("button", { name: /^Replace/ })).not.toBeInTheDocument();
    // Everyone may see the history.
    expect(screen.getByRole("button", { name: "History of Q2 Accounts.pdf" })).toBeInTheDocument();
  });

  it("asks what changed, then uploads the note and the file and says which version is current", async () => {
    serveLibrary();
    let sent: { note: FormDataEntryValue | null; parts: string[] } | null = null;
    server.use(
      handle(documentsApi.replaceDocument, async ({ params, request }) => {
        const form = await request.formData();
        // The note comes before the file: the server reads the fields first. (The test's XHR does not keep the file's name.)
        sent = { note: form.get("note"), parts: [...form.keys()] };
        return buildFileDocument({ id: params.id, name: "My memo.pdf", version: 2, replacedAt: "2026-06-02T14:05:00.000Z" });
      }),
    );
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await user.click(await screen.findByRole("button", { name: "Replace My memo.pdf" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace My memo.pdf" });
    await user.upload(within(dialog).getByLabelText("New file"), new File(["%PDF-1.4"], "memo-v2.pdf", { type: "application/pdf" }));
    await user.click(within(dialog).getByRole("button", { name: "Upload new version" }));
    expect(await within(dialog).findByText("Say what changed in this version")).toBeInTheDocument();
    expect(sent).toBeNull();

    await user.type(within(dialog).getByLabelText("What changed?"), "New figures on page 2");
    await user.click(within(dialog).getByRole("button", { name: "Upload new version" }));
    const toast = await findToast("New version uploaded");
    expect(within(toast).getByText("My memo.pdf is now version 2.")).toBeInTheDocument();
    expect(sent).toEqual({ note: "New figures on page 2", parts: ["note", "file"] });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("shows the server's refusal of a new version", async () => {
    serveLibrary();
    server.use(handle(documentsApi.replaceDocument, () => apiError(415, "File type not accepted")));
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await user.click(await screen.findByRole("button", { name: "Replace My memo.pdf" }));
    const dialog = await screen.findByRole("dialog", { name: "Replace My memo.pdf" });
    await user.upload(within(dialog).getByLabelText("New file"), new File(["MZ"], "memo.pdf", { type: "application/pdf" }));
    await user.type(within(dialog).getByLabelText("What changed?"), "Oops");
    await user.click(within(dialog).getByRole("button", { name: "Upload new version" }));
    const toast = await findToastBehindModal("Replace failed");
    expect(within(toast).getByText("File type not accepted")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Replace My memo.pdf" })).toBeInTheDocument();
  });

  it("lists every version with its uploader, time, note, size and pages, to open in the reader or download", async () => {
    serveLibrary();
    server.use(handle(documentsApi.listVersions, () => versions, { params: { id: 1 } }));
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("observer") });
    await user.click(await screen.findByRole("button", { name: "History of Q2 Accounts.pdf" }));
    const dialog = await screen.findByRole("dialog", { name: "History of Q2 Accounts.pdf" });
    const rows = await within(dialog).findAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText("Version 2")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Ann Lee · 2 Jun 2026 14:05 · 2.0 KB · 12 pages")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("Updated the cash forecast")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("A former member · 20 May 2026 10:00 · 1.0 KB · 11 pages")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("First version")).toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "Open version 1" })).toHaveAttribute("href", "/documents/1/read?version=1");
    expect(within(dialog).getByRole("link", { name: "Download version 2" })).toHaveAttribute(
      "href",
      apiUrl(documentsApi.downloadVersion, { params: { id: 1, version: 2 }, query: {} }),
    );
    expect(within(dialog).getByRole("link", { name: "What changed in version 2" })).toHaveAttribute(
      "href",
      "/documents/1/compare?from=1&to=2",
    );
  });

  it("says when the history could not be loaded, and tries again", async () => {
    serveLibrary();
    let failing = true;
    server.use(handle(documentsApi.listVersions, () => (failing ? apiError(500, "Down") : versions)));
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await user.click(await screen.findByRole("button", { name: "History of Q2 Accounts.pdf" }));
    const dialog = await screen.findByRole("dialog", { name: "History of Q2 Accounts.pdf" });
    expect(await within(dialog).findByText("The versions could not be loaded.")).toBeInTheDocument();
    failing = false;
    await user.click(within(dialog).getByRole("button", { name: "Try again" }));
    expect(await within(dialog).findByText("Version 2")).toBeInTheDocument();
  });
});
