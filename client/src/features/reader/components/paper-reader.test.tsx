import { screen, waitFor, within } from "@testing-library/react";
import * as documentsApi from "@shared/api/documents";
import * as readingApi from "@shared/api/reading";
import type { DocumentObject } from "@shared/documents";
import type { PaperNote } from "@shared/paper-reading";
import { apiUrl } from "@/lib/api-client";
import { setAuthToken } from "@/lib/auth-token";
import { buildUser } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";
import { signedInHandlers } from "@/testing/handlers";
import { renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { PaperReader } from "@/features/reader/components/paper-reader";
import { fakePdf, installFakeIntersection, setWindowWidth } from "@/features/reader/testing/fake-pdf";

const paper: DocumentObject = {
  id: 5,
  name: "Q3 board paper.pdf",
  fileType: "application/pdf",
  fileSize: 120_000,
  content: null,
  category: "Financial",
  companyId: 3,
  uploadedBy: 8,
  createdAt: "2026-05-20T10:00:00.000Z",
  hasFile: true,
  version: 2,
  replacedAt: "2026-05-21T10:00:00.000Z",
  pages: 42,
  readingMinutes: 84,
  changedSinceRead: false,
  readVersion: null,
};

const texts = Array.from({ length: 42 }, (_, index) => `Page ${index + 1} text.`);
texts[0] = "Revenue grew in the quarter. Revenue guidance holds.";
texts[2] = "Cash flow and revenue by region.";

function note(fields: Partial<PaperNote> & { id: number; page: number; text: string }): PaperNote {
  return {
    documentId: paper.id,
    version: 2,
    quote: null,
    unplaced: false,
    createdAt: "2026-05-21T11:00:00.000Z",
    updatedAt: "2026-05-21T11:00:00.000Z",
    ...fields,
  };
}

let intersection: ReturnType<typeof installFakeIntersection>;
let restoreWidth: () => void;
beforeEach(() => {
  intersection = installFakeIntersection();
  restoreWidth = setWindowWidth(1280);
  setAuthToken(TEST_TOKEN);
  server.use(...signedInHandlers(buildUser({ id: 7, companyId: 3, role: "member" })));
});
afterEach(() => {
  intersection.restore();
  restoreWidth();
  window.localStorage.clear();
});

function renderReader(notes: PaperNote[] = [], props: { version?: number } = {}) {
  const pdf = fakePdf(texts);
  server.use(handle(readingApi.listNotes, () => notes));
  const result = renderWithProviders(
    <PaperReader document={paper} version={props.version} back={{ href: "/documents", label: "Back to documents" }} openPdf={pdf.open} />,
  );
  return { ...result, pdf };
}

describe("the paper reader", () => {
  it("opens the latest version with the session's token, and says where the reader is and how long the paper takes", async () => {
    const { pdf } = renderReader();
    await screen.findByRole("toolbar", { name: "Reader controls" });
    const reader = screen.getByRole("region", { name: "Document reader" });
    expect(within(reader).getByText("Page 1 of 42 · about 1 h 24 min")).toBeInTheDocument();
    expect(pdf.requests).toEqual([
      { url: apiUrl(documentsApi.downloadDocument, { params: { id: 5 }, query: { inline: "1" } }), token: TEST_TOKEN },
    ]);
    expect(within(reader).getByRole("group", { name: "Page 42" })).toBeInTheDocument();
    expect(within(reader).getByRole("button", { name: "Zoom in" })).toBeInTheDocument();
    expect(within(reader).getByRole("button", { name: "Zoom out" })).toBeInTheDocument();
  });

  it("searches the pages' text: results by page, Enter and Shift+Enter move through them", async () => {
    const { user } = renderReader();
    const search = await screen.findByRole("searchbox", { name: "Search in document" });
    await user.type(search, "revenue");
    const results = await screen.findByRole("list", { name: "Search results" });
    await waitFor(() => expect(within(results).getAllByRole("button")).toHaveLength(3));
    expect(
      within(results)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual([
      expect.stringMatching(/^Page 1Revenue grew in the quarter/),
      expect.stringMatching(/^Page 1Revenue grew in the quarter\. Revenue guidance holds\./),
      expect.stringMatching(/^Page 3Cash flow and revenue by region\./),
    ]);
    expect(screen.getByText("3 results")).toBeInTheDocument();

    await user.keyboard("{Enter}");
    expect(screen.getByText("Result 1 of 3")).toBeInTheDocument();
    await user.keyboard("{Enter}{Enter}");
    expect(screen.getByText("Result 3 of 3")).toBeInTheDocument();
    expect(within(results).getAllByRole("button")[2]).toHaveAttribute("aria-current", "true");
    await user.keyboard("{Shift>}{Enter}{/Shift}");
    expect(screen.getByText("Result 2 of 3")).toBeInTheDocument();

    // The hits are marked in the drawn page's text.
    await intersection.show(1);
    await waitFor(() => expect(document.querySelectorAll('[data-page="1"] mark.reader-search-hit')).toHaveLength(2));
    expect(document.querySelector('[data-page="1"] mark.reader-search-hit-active')?.textContent).toBe("Revenue");

    await user.clear(search);
    await user.type(search, "dividend");
    expect(await screen.findByText("No results")).toBeInTheDocument();
  });

  it("lists the notes of the page or of all pages, marks their words, and keeps the unplaced ones apart with their old page's text", async () => {
    const { user } = renderReader([
      note({ id: 1, page: 1, quote: "guidance holds", text: "Ask about guidance" }),
      note({ id: 2, page: 3, text: "Regions look uneven" }),
      note({ id: 3, page: 12, unplaced: true, pageText: "Appendix C: the old forecast", text: "Was the forecast withdrawn?" }),
    ]);
    const notes = await screen.findByRole("complementary", { name: "My notes" });
    expect(within(notes).getByText("Only you can see your notes.")).toBeInTheDocument();
    expect(await within(notes).findByText("Ask about guidance")).toBeInTheDocument();
    expect(within(notes).queryByText("Regions look uneven")).not.toBeInTheDocument();

    await user.click(within(notes).getByRole("button", { name: "All pages" }));
    expect(within(notes).getByRole("list", { name: "All notes" }).textContent).toMatch(/Ask about guidance.*Regions look uneven/);

    const unplaced = within(notes).getByRole("region", { name: "Unplaced notes" });
    expect(within(unplaced).getByText("Was on page 12")).toBeInTheDocument();
    expect(within(unplaced).getByText("Appendix C: the old forecast")).toBeInTheDocument();
    expect(within(unplaced).getByText("Was the forecast withdrawn?")).toBeInTheDocument();

    await intersection.show(1);
    await waitFor(() => expect(document.querySelector('[data-page="1"] mark.reader-note-mark')?.textContent).toBe("guidance holds"));
    expect(screen.getByRole("button", { name: "1 note on page 1" })).toBeInTheDocument();
  });

  it("writes a note on the page on the latest version, and shows the server's refusal", async () => {
    const sent: unknown[] = [];
    const { user } = renderReader();
    server.use(
      handle(readingApi.createNote, ({ body }) => {
        sent.push(body);
        if (body.text.length > 20) return apiError(400, { message: "A note holds at most 10,000 characters" });
        return note({ id: 9, page: body.page, text: body.text });
      }),
    );
    const notes = await screen.findByRole("complementary", { name: "My notes" });
    await user.click(within(notes).getByRole("button", { name: "Note on this page" }));
    await user.type(within(notes).getByRole("textbox", { name: "Note" }), "A note far too long for the fake");
    await user.click(within(notes).getByRole("button", { name: "Save note" }));
    expect(await within(notes).findByRole("alert")).toHaveTextContent("A note holds at most 10,000 characters");

    await user.clear(within(notes).getByRole("textbox", { name: "Note" }));
    await user.type(within(notes).getByRole("textbox", { name: "Note" }), "Check the cash");
    await user.click(within(notes).getByRole("button", { name: "Save note" }));
    expect(await within(notes).findByText("Check the cash")).toBeInTheDocument();
    expect(within(notes).queryByRole("textbox")).not.toBeInTheDocument();
    expect(sent.at(-1)).toEqual({ version: 2, page: 1, quote: null, text: "Check the cash" });
    // The focus, in the form that has gone, comes back to the button that opened it; so does a cancelled note's.
    await waitFor(() => expect(within(notes).getByRole("button", { name: "Note on this page" })).toHaveFocus());
    await user.keyboard("{Enter}");
    expect(within(notes).getByRole("textbox", { name: "Note" })).toHaveFocus();
    await user.click(within(notes).getByRole("button", { name: "Cancel" }));
    expect(within(notes).getByRole("button", { name: "Note on this page" })).toHaveFocus();
  });

  it("changes and deletes a note", async () => {
    const { user } = renderReader([note({ id: 1, page: 1, text: "First thought" })]);
    server.use(
      handle(readingApi.updateNote, ({ params, body }) => note({ id: params.id, page: 1, text: body.text })),
      handle(readingApi.deleteNote, () => undefined),
    );
    const notes = await screen.findByRole("complementary", { name: "My notes" });
    await user.click(await within(notes).findByRole("button", { name: "Edit note on page 1" }));
    const field = within(notes).getByRole("textbox", { name: "Change the note" });
    await user.clear(field);
    await user.type(field, "Second thought");
    await user.click(within(notes).getByRole("button", { name: "Save note" }));
    expect(await within(notes).findByText("Second thought")).toBeInTheDocument();
    await waitFor(() => expect(within(notes).getByRole("button", { name: "Edit note on page 1" })).toHaveFocus());

    await user.click(within(notes).getByRole("button", { name: "Delete note on page 1" }));
    await user.click(await screen.findByRole("button", { name: "Delete note" }));
    await waitFor(() => expect(within(notes).queryByText("Second thought")).not.toBeInTheDocument());
    expect(within(notes).getByText("No notes on this page.")).toBeInTheDocument();
  });

  it("opens an earlier version read-only, from its own address, with no notes written on it", async () => {
    const { pdf } = renderReader([note({ id: 1, page: 1, text: "On the latest" })], { version: 1 });
    await screen.findByRole("toolbar", { name: "Reader controls" });
    expect(pdf.requests[0]!.url).toBe(apiUrl(documentsApi.downloadVersion, { params: { id: 5, version: 1 }, query: { inline: "1" } }));
    expect(screen.getByText("Version 1 of 2")).toBeInTheDocument();
    const notes = await screen.findByRole("complementary", { name: "My notes" });
    expect(within(notes).getByText(/notes are written on the latest version/)).toBeInTheDocument();
    expect(within(notes).queryByRole("button", { name: "Note on this page" })).not.toBeInTheDocument();
    expect(screen.queryByText("On the latest")).not.toBeInTheDocument();
  });

  it("at 375 px keeps the side panel and the notes in sheets, opened from the toolbar", async () => {
    restoreWidth();
    restoreWidth = setWindowWidth(375);
    const { user } = renderReader([note({ id: 1, page: 1, text: "Phone note" })]);
    const toolbar = await screen.findByRole("toolbar", { name: "Reader controls" });
    expect(screen.queryByRole("searchbox", { name: "Search in document" })).not.toBeInTheDocument();
    expect(screen.queryByRole("complementary", { name: "My notes" })).not.toBeInTheDocument();

    await user.click(within(toolbar).getByRole("button", { name: "Pages and search" }));
    const side = await screen.findByRole("dialog", { name: "Pages and search" });
    expect(within(side).getByRole("searchbox", { name: "Search in document" })).toBeInTheDocument();
    expect(within(side).getByRole("navigation", { name: "Pages" })).toBeInTheDocument();
    await user.keyboard("{Escape}");

    await user.click(within(toolbar).getByRole("button", { name: "My notes" }));
    const sheet = await screen.findByRole("dialog", { name: "My notes" });
    expect(await within(sheet).findByText("Phone note")).toBeInTheDocument();
  });
});
