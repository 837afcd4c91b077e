import { screen, waitFor, within } from "@testing-library/react";
import * as documentsApi from "@shared/api/documents";
import type { LibraryDocument } from "@shared/documents";
import type { CompanyRole } from "@shared/roles";
import { apiUrl } from "@/lib/api-client";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";
import { findToast, findToastBehindModal } from "@/testing/toasts";
import { viewModeKey } from "@/features/documents/components/documents-library";

const companyId = 3;
const userAs = (role: CompanyRole, id = 7) => buildUser({ id, companyId, role });

function libraryDocument(fields: Partial<LibraryDocument> & { id: number; name: string }): LibraryDocument {
  return {
    fileType: "application/pdf",
    fileSize: 1536,
    content: null,
    category: "General",
    companyId,
    uploadedBy: 8,
    createdAt: "2026-05-20T10:00:00.000Z",
    hasFile: true,
    version: 1,
    replacedAt: null,
    pages: null,
    readingMinutes: null,
    changedSinceRead: false,
    readVersion: null,
    truncated: false,
    uploader: "Fay Founder",
    ...fields,
  };
}

const library = [
  libraryDocument({ id: 1, name: "Q2 Accounts.pdf", category: "Financial", fileSize: 1024 * 1024 * 1.5 }),
  libraryDocument({ id: 2, name: "Shareholder agreement.docx", category: "Legal", uploadedBy: 7, uploader: "Ann Lee" }),
  libraryDocument({ id: 3, name: "Hiring plan.txt", category: "HR", fileType: "text/plain", fileSize: 1023 }),
];

function serveLibrary(documents: LibraryDocument[] = library) {
  server.use(handle(documentsApi.listLibrary, () => documents));
}

/** The addresses of the first document's file: to download, and to show in the browser. */
const download = apiUrl(documentsApi.downloadDocument, { params: { id: 1 }, query: {} });
const shownInline = apiUrl(documentsApi.downloadDocument, { params: { id: 1 }, query: { inline: "1" } });

const rowNames = () =>
  within(screen.getByRole("list", { name: "Documents" }))
    .getAllByRole("listitem")
    .map((item) => item.querySelector("p")?.textContent);

afterEach(() => window.localStorage.clear());

describe("/documents", () => {
  it("starts searched when the address says so: a written resolution's link to its certificates", async () => {
    // Quorum files a certificate itself: no person uploaded it.
    const certificate = {
      id: 9,
      name: "Adopt the budget — certificate.pdf",
      category: "Resolution Certificates",
      uploadedBy: null,
      uploader: "",
    };
    serveLibrary([...library, libraryDocument(certificate)]);
    renderApp({ path: "/documents?search=Resolution%20Certificates", signedInAs: userAs("member") });
    expect(await screen.findByText("Adopt the budget — certificate.pdf")).toBeInTheDocument();
    expect(screen.getByText("Added on May 20, 2026")).toBeInTheDocument();
    expect(screen.queryByText(/Uploaded by/)).not.toBeInTheDocument();
    expect(screen.getByRole("searchbox", { name: "Search documents" })).toHaveValue("Resolution Certificates");
    expect(screen.queryByText("Q2 Accounts.pdf")).not.toBeInTheDocument();
  });

  it("lists the library with size and uploader, searches by name or category and filters by category", async () => {
    serveLibrary();
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    expect(await screen.findByText("Q2 Accounts.pdf")).toBeInTheDocument();
    expect(screen.getByText("1.5 MB")).toBeInTheDocument();
    expect(screen.getByText("1023 Bytes")).toBeInTheDocument();
    expect(screen.getByText("Uploaded by Ann Lee • May 20, 2026")).toBeInTheDocument();

    const search = screen.getByRole("searchbox", { name: "Search documents" });
    await user.type(search, "LEGAL");
    expect(rowNames()).toEqual(["Shareholder agreement.docx"]);
    await user.clear(search);
    await user.type(search, "plan");
    expect(rowNames()).toEqual(["Hiring plan.txt"]);
    await user.clear(search);

    await user.click(screen.getByRole("combobox", { name: "Filter by category" }));
    await user.click(await screen.findByRole("option", { name: "Financial" }));
    expect(rowNames()).toEqual(["Q2 Accounts.pdf"]);
    await user.type(search, "nothing like this");
    expect(screen.getByText("No documents found")).toBeInTheDocument();
  });

  it("filters by the categories Quorum files itself: approved minutes and written resolutions' certificates", async () => {
    serveLibrary([
      ...library,
      libraryDocument({ id: 4, name: "Minutes of Board meeting (2 Jun 2026).pdf", category: "Meeting Minutes", uploadedBy: null }),
      libraryDocument({ id: 5, name: "Certificate of written resolution #41.pdf", category: "Resolution Certificates", uploadedBy: null }),
    ]);
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await screen.findByText("Q2 Accounts.pdf");
    await user.click(screen.getByRole("combobox", { name: "Filter by category" }));
    await user.click(await screen.findByRole("option", { name: "Resolution Certificates" }));
    expect(rowNames()).toEqual(["Certificate of written resolution #41.pdf"]);
    await user.click(screen.getByRole("combobox", { name: "Filter by category" }));
    await user.click(await screen.findByRole("option", { name: "Meeting Minutes" }));
    expect(rowNames()).toEqual(["Minutes of Board meeting (2 Jun 2026).pdf"]);
  });

  it("shows the empty state when the library is empty", async () => {
    renderApp({ path: "/documents", signedInAs: userAs("member") });
    expect(await screen.findByText("No documents found")).toBeInTheDocument();
    expect(screen.getByText("Upload your first document to get started.")).toBeInTheDocument();
  });

  it("remembers list or grid per user across reloads, list by default", async () => {
    serveLibrary();
    const first = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await screen.findByText("Q2 Accounts.pdf");
    expect(screen.getByRole("button", { name: "List view" })).toHaveAttribute("aria-pressed", "true");
    await first.user.click(screen.getByRole("button", { name: "Grid view" }));
    expect(screen.getByRole("button", { name: "Grid view" })).toHaveAttribute("aria-pressed", "true");
    expect(window.localStorage.getItem(viewModeKey(7))).toBe("grid");
    first.unmount();

    renderApp({ path: "/documents", signedInAs: userAs("member") });
    await screen.findByText("Q2 Accounts.pdf");
    expect(screen.getByRole("button", { name: "Grid view" })).toHaveAttribute("aria-pressed", "true");
  });

  it("shows the delete icon only to those allowed: a member for their own, a founder or admin for all, an observer never", async () => {
    serveLibrary();
    const member = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await screen.findByText("Q2 Accounts.pdf");
    expect(screen.getAllByRole("button", { name: /^Delete / }).map((button) => button.getAttribute("aria-label"))).toEqual([
      "Delete Shareholder agreement.docx",
    ]);
    expect(screen.getByRole("button", { name: "Upload Document" })).toBeInTheDocument();
    member.unmount();

    const founder = renderApp({ path: "/documents", signedInAs: userAs("founder", 9) });
    await screen.findByText("Q2 Accounts.pdf");
    expect(screen.getAllByRole("button", { name: /^Delete / })).toHaveLength(3);
    founder.unmount();

    renderApp({ path: "/documents", signedInAs: userAs("observer", 7) });
    await screen.findByText("Q2 Accounts.pdf");
    expect(screen.queryAllByRole("button", { name: /^Delete / })).toHaveLength(0);
    expect(screen.queryByRole("button", { name: "Upload Document" })).not.toBeInTheDocument();
    // Everyone may download.
    expect(screen.getByRole("link", { name: "Download Q2 Accounts.pdf" })).toHaveAttribute("href", download);
  });

  it("deletes only after the confirmation", async () => {
    serveLibrary();
    const deleted: string[] = [];
    server.use(
      handle(documentsApi.deleteDocument, ({ params }) => {
        deleted.push(String(params.id));
      }),
    );
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("founder") });
    await screen.findByText("Q2 Accounts.pdf");
    await user.click(screen.getByRole("button", { name: "Delete Q2 Accounts.pdf" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete document?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(deleted).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Delete Q2 Accounts.pdf" }));
    await user.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(deleted).toEqual(["1"]));
    expect(await findToast("Document deleted")).toBeInTheDocument();
  });

  it("previews a PDF in a frame where the browser shows PDFs, and as a card with Download and Open in new tab where it cannot", async () => {
    serveLibrary();
    const setPdfViewer = (enabled: boolean | undefined) =>
      Object.defineProperty(window.navigator, "pdfViewerEnabled", { value: enabled, configurable: true });
    try {
      setPdfViewer(true);
      const { user, unmount } = renderApp({ path: "/documents", signedInAs: userAs("member") });
      await user.click(await screen.findByRole("button", { name: "Preview Q2 Accounts.pdf" }));
      let dialog = await screen.findByRole("dialog", { name: "Q2 Accounts.pdf" });
      expect(within(dialog).getByTitle("Preview of Q2 Accounts.pdf")).toHaveAttribute("src", shownInline);
      expect(within(dialog).queryByRole("link", { name: "Open in new tab" })).not.toBeInTheDocument();
      expect(within(dialog).getByRole("link", { name: "Download" })).toHaveAttribute("href", download);
      unmount();

      setPdfViewer(false);
      const second = renderApp({ path: "/documents", signedInAs: userAs("member") });
      await second.user.click(await screen.findByRole("button", { name: "Preview Q2 Accounts.pdf" }));
      dialog = await screen.findByRole("dialog", { name: "Q2 Accounts.pdf" });
      expect(within(dialog).queryByTitle("Preview of Q2 Accounts.pdf")).not.toBeInTheDocument();
      expect(within(dialog).getByRole("link", { name: "Download" })).toHaveAttribute("href", download);
      const open = within(dialog).getByRole("link", { name: "Open in new tab" });
      expect(open).toHaveAttribute("href", shownInline);
      expect(open).toHaveAttribute("target", "_blank");
      expect(open).toHaveAttribute("rel", expect.stringContaining("noopener"));
    } finally {
      setPdfViewer(undefined);
    }
  });

  it("shows a note's whole text: a short one from the list, a long one (cut short in the list) read on its own", async () => {
    const wholeText = `Minutes. ${"The board resolved to carry on. ".repeat(4_000)}The end.`;
    const note = (fields: Partial<LibraryDocument> & { id: number; name: string }) =>
      libraryDocument({ fileType: "text/plain", fileSize: 0, hasFile: false, ...fields });
    serveLibrary([
      note({ id: 11, name: "Long note", content: wholeText.slice(0, 300), truncated: true }),
      note({ id: 12, name: "Short note", content: "Just words" }),
    ]);
    const read: string[] = [];
    server.use(
      handle(documentsApi.getDocument, ({ params }) => {
        read.push(String(params.id));
        const { uploader: _uploader, truncated: _truncated, ...document } = note({ id: 11, name: "Long note", content: wholeText });
        return document;
      }),
    );
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await user.click(await screen.findByRole("button", { name: "Preview Long note" }));
    const dialog = await screen.findByRole("dialog", { name: "Long note" });
    expect(
      await within(dialog).findByText((_, element) => element?.tagName === "P" && element.textContent === wholeText),
    ).toBeInTheDocument();
    expect(read).toEqual(["11"]);
    await user.keyboard("{Escape}");

    await user.click(await screen.findByRole("button", { name: "Preview Short note" }));
    expect(within(await screen.findByRole("dialog", { name: "Short note" })).getByText("Just words")).toBeInTheDocument();
    expect(read).toEqual(["11"]);
  });

  it("asks for a title and a file before uploading", async () => {
    let posted = false;
    server.use(
      handle(documentsApi.createDocument, () => {
        posted = true;
        const { uploader: _uploader, truncated: _truncated, ...document } = libraryDocument({ id: 4, name: "Board pack" });
        return document;
      }),
    );
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await user.click(await screen.findByRole("button", { name: "Upload Document" }));
    const dialog = await screen.findByRole("dialog", { name: "Upload Document" });
    expect(within(dialog).getByRole("combobox", { name: "Category" })).toHaveTextContent("General");
    await user.type(within(dialog).getByLabelText("Title"), "   ");
    await user.click(within(dialog).getByRole("button", { name: "Upload" }));
    const toast = await findToastBehindModal("Error");
    expect(within(toast).getByText("Please fill in all required fields and select a file")).toBeInTheDocument();
    expect(posted).toBe(false);
    expect(within(dialog).getByLabelText("File")).toHaveAttribute("accept", ".pdf,.doc,.docx,.txt,.jpg,.jpeg,.png,.gif");
  });

  it("shows the server's message when an upload fails", async () => {
    server.use(
      handle(documentsApi.createDocument, () =>
        apiError(415, "File type not accepted: upload a pdf, doc, docx, txt, jpg, jpeg, png, gif file"),
      ),
    );
    const { user } = renderApp({ path: "/documents", signedInAs: userAs("member") });
    await user.click(await screen.findByRole("button", { name: "Upload Document" }));
    const dialog = await screen.findByRole("dialog", { name: "Upload Document" });
    await user.type(within(dialog).getByLabelText("Title"), "Board pack");
    await user.upload(within(dialog).getByLabelText("File"), new File(["%PDF-1.4"], "pack.pdf", { type: "application/pdf" }));
    await user.click(within(dialog).getByRole("button", { name: "Upload" }));
    const toast = await findToastBehindModal("Upload failed");
    expect(within(toast).getByText(/File type not accepted/)).toBeInTheDocument();
  });
});
