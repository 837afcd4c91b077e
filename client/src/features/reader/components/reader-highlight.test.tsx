import { screen, waitFor } from "@testing-library/react";
import * as readingApi from "@shared/api/reading";
import type { DocumentObject } from "@shared/documents";
import { setAuthToken } from "@/lib/auth-token";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { signedInHandlers } from "@/testing/handlers";
import { renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { PaperReader } from "@/features/reader/components/paper-reader";
import { highlightTerms } from "@/features/reader/lib/highlight";
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
  version: 1,
  replacedAt: null,
  pages: 3,
  readingMinutes: 6,
  changedSinceRead: false,
  readVersion: null,
};

const texts = ["Revenue grew in the quarter. REVENUE guidance holds.", "Costs fell.", "Cash flow and revenue by region."];

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
  intersection.restore();
  restoreWidth();
});

function renderReader(highlights?: readonly string[]) {
  const pdf = fakePdf(texts);
  renderWithProviders(
    <PaperReader
      document={paper}
      initialPage={3}
      highlights={highlights}
      back={{ href: "/documents", label: "Back to documents" }}
      openPdf={pdf.open}
    />,
  );
}

const marked = (page: number) =>
  [...document.querySelectorAll(`[data-page="${page}"] mark.reader-highlight`)].map((mark) => mark.textContent);

describe("a board search's words in the reader", () => {
  it("are marked on every page drawn, whatever their case", async () => {
    renderReader(highlightTerms("revenue Region"));
    await screen.findByRole("toolbar", { name: "Reader controls" });
    await intersection.show(3);
    await waitFor(() => expect(marked(3)).toEqual(["revenue", "region"]));
    await intersection.show(1);
    await waitFor(() => expect(marked(1)).toEqual(["Revenue", "REVENUE"]));
    await intersection.show(2);
    await waitFor(() => expect(document.querySelector('[data-page="2"][data-drawn="true"]')).not.toBeNull());
    expect(marked(2)).toEqual([]);
  });

  it("leave the pages unmarked when none are given", async () => {
    renderReader();
    await screen.findByRole("toolbar", { name: "Reader controls" });
    await intersection.show(1);
    await waitFor(() => expect(document.querySelector('[data-page="1"][data-drawn="true"]')).not.toBeNull());
    expect(document.querySelectorAll("mark")).toHaveLength(0);
  });
});

describe("highlightTerms", () => {
  it("splits the address's words on spaces, each once, and leaves out what no search would send", () => {
    expect(highlightTerms("revenue  Revenue\tcash")).toEqual(["Revenue", "cash"]);
    expect(highlightTerms(null)).toEqual([]);
    expect(highlightTerms(`${"x".repeat(101)} ok`)).toEqual(["ok"]);
    expect(highlightTerms(Array.from({ length: 20 }, (_, index) => `w${index}`).join(" "))).toHaveLength(10);
  });
});
