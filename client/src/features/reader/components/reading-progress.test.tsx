import { act, screen, within } from "@testing-library/react";
import * as meetingRecordApi from "@shared/api/meeting-record";
import * as readingApi from "@shared/api/reading";
import type { DocumentObject } from "@shared/documents";
import { apiUrl } from "@/lib/api-client";
import { setAuthToken } from "@/lib/auth-token";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { signedInHandlers } from "@/testing/handlers";
import { renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { PackReader } from "@/features/reader/components/pack-reader";
import { PaperReader } from "@/features/reader/components/paper-reader";
import { fakePdf, installFakeIntersection, setWindowWidth } from "@/features/reader/testing/fake-pdf";

const paper = {
  id: 5,
  name: "Risk register.pdf",
  fileType: "application/pdf",
  fileSize: 9_000,
  content: null,
  category: "General",
  companyId: 3,
  uploadedBy: 8,
  createdAt: "2026-05-20T10:00:00.000Z",
  hasFile: true,
  version: 3,
  replacedAt: null,
  pages: 6,
  readingMinutes: 12,
  changedSinceRead: false,
  readVersion: null,
} satisfies DocumentObject;
const texts = Array.from({ length: 6 }, (_, index) => `Risk ${index + 1}`);

let intersection: ReturnType<typeof installFakeIntersection>;
let restoreWidth: () => void;
beforeEach(() => {
  intersection = installFakeIntersection();
  restoreWidth = setWindowWidth(1280);
  setAuthToken(TEST_TOKEN);
  server.use(
    ...signedInHandlers(buildUser({ id: 7, companyId: 3, role: "member" })),
    handle(readingApi.listNotes, () => []),
  );
});
afterEach(() => {
  vi.useRealTimers();
  intersection.restore();
  restoreWidth();
  window.localStorage.clear();
});

describe("reading progress", () => {
  it("records the pages in view for a second, several in one request after a pause, each once, for the version read", async () => {
    const sent: Array<{ version: number; pages: number[] }> = [];
    server.use(handle(readingApi.recordReads, ({ body }) => void sent.push(body)));
    renderWithProviders(<PaperReader document={paper} back={{ href: "/documents", label: "Back" }} openPdf={fakePdf(texts).open} />);
    await screen.findByRole("toolbar", { name: "Reader controls" });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

    await intersection.show(1);
    await intersection.show(2);
    act(() => vi.advanceTimersByTime(1_000));
    // A page scrolled past in less than a second is not read.
    await intersection.show(3);
    act(() => vi.advanceTimersByTime(500));
    await intersection.hide(3);
    await intersection.show(4);
    act(() => vi.advanceTimersByTime(1_000));
    expect(sent).toEqual([]);
    // Seen again: not sent twice.
    await intersection.hide(1);
    await intersection.show(1);
    act(() => vi.advanceTimersByTime(5_000));
    vi.useRealTimers();
    await vi.waitFor(() => expect(sent).toEqual([{ version: 3, pages: [1, 2, 4] }]));
  });

  it("sends what is left when the reader closes", async () => {
    const sent: number[][] = [];
    server.use(handle(readingApi.recordReads, ({ body }) => void sent.push(body.pages)));
    const { unmount } = renderWithProviders(
      <PaperReader document={paper} back={{ href: "/documents", label: "Back" }} openPdf={fakePdf(texts).open} />,
    );
    await screen.findByRole("toolbar", { name: "Reader controls" });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await intersection.show(5);
    act(() => vi.advanceTimersByTime(1_000));
    vi.useRealTimers();
    unmount();
    await vi.waitFor(() => expect(sent).toEqual([[5]]));
  });
});

describe("the board pack", () => {
  it("records the pack opened once, reads no pages, has no notes, and jumps by its outline", async () => {
    let opened = 0;
    server.use(
      handle(readingApi.recordPackOpened, () => void opened++),
      handle(readingApi.recordReads, () => {
        throw new Error("a pack's pages are no paper's");
      }),
    );
    const outline = [
      { title: "Agenda", page: 2, children: [] },
      { title: "1. Risk register", page: 4, children: [{ title: "Appendix", page: 6, children: [] }] },
    ];
    const pdf = fakePdf(texts, outline);
    const { user } = renderWithProviders(<PackReader meetingId={11} meetingTitle="Q3 Board" openPdf={pdf.open} />);
    const toolbar = await screen.findByRole("toolbar", { name: "Reader controls" });
    expect(pdf.requests[0]!.url).toBe(apiUrl(meetingRecordApi.boardPack, { params: { id: 11 } }));
    expect(screen.getByRole("heading", { name: "Q3 Board: board pack" })).toBeInTheDocument();
    await vi.waitFor(() => expect(opened).toBe(1));
    expect(within(toolbar).queryByRole("button", { name: "My notes" })).not.toBeInTheDocument();
    expect(screen.queryByRole("complementary", { name: "My notes" })).not.toBeInTheDocument();

    const nav = await screen.findByRole("navigation", { name: "Outline" });
    await user.click(within(nav).getByRole("button", { name: /Appendix/ }));
    expect(within(toolbar).getByRole("textbox", { name: "Go to page" })).toHaveValue("6");
    expect(screen.getByText("Page 6 of 6 · about 12 min")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Pages" }));
    expect(screen.getByRole("navigation", { name: "Pages" })).toBeInTheDocument();
    await intersection.show(2);
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_100)));
    expect(opened).toBe(1);
  });

  it("says when the pack is still being built, and opens it on Try again", async () => {
    let attempts = 0;
    const pdf = fakePdf(texts);
    const open: typeof pdf.open = (request) => {
      attempts++;
      if (attempts > 1) return pdf.open(request);
      const { PdfOpenError } = pdfErrors;
      return { promise: Promise.reject(new PdfOpenError("Retry later", 429)), cancel: () => undefined };
    };
    server.use(handle(readingApi.recordPackOpened, () => undefined));
    const { user } = renderWithProviders(<PackReader meetingId={11} meetingTitle="Q3 Board" openPdf={open} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("The board pack is still being prepared. Try again in a moment.");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("toolbar", { name: "Reader controls" })).toBeInTheDocument();
  });
});

const pdfErrors = await import("@/features/reader/lib/pdf-source");
