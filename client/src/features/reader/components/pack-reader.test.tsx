import { screen, within } from "@testing-library/react";
import * as readingApi from "@shared/api/reading";
import { setAuthToken } from "@/lib/auth-token";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { signedInHandlers } from "@/testing/handlers";
import { renderWithProviders, TEST_TOKEN } from "@/testing/render";
import { server } from "@/testing/server";
import { PackReader, type PackPaper } from "@/features/reader/components/pack-reader";
import { fakePdf, installFakeIntersection, setWindowWidth } from "@/features/reader/testing/fake-pdf";

const texts = ["Agenda", "Budget", "Minutes"];

let intersection: ReturnType<typeof installFakeIntersection>;
let restoreWidth: () => void;
beforeEach(() => {
  intersection = installFakeIntersection();
  restoreWidth = setWindowWidth(375);
  setAuthToken(TEST_TOKEN);
  server.use(
    ...signedInHandlers(buildUser({ id: 7, companyId: 3, role: "member" })),
    handle(readingApi.recordPackOpened, () => undefined),
  );
});
afterEach(() => {
  intersection.restore();
  restoreWidth();
});

const paper = (fields: Partial<PackPaper> & Pick<PackPaper, "id" | "name">): PackPaper => ({
  version: 1,
  changedSinceRead: false,
  readVersion: null,
  ...fields,
});

describe("the board pack's changed papers", () => {
  it("flags each paper changed since the director read it, opening what changed from the version they read", async () => {
    const papers = [
      paper({ id: 5, name: "Budget 2026.pdf", version: 3, changedSinceRead: true, readVersion: 1 }),
      paper({ id: 6, name: "Minutes May.pdf" }),
      paper({ id: 8, name: "Risk register.pdf", version: 4, changedSinceRead: true, readVersion: 3 }),
    ];
    renderWithProviders(<PackReader meetingId={11} meetingTitle="Q3 Board" papers={papers} openPdf={fakePdf(texts).open} />);
    await screen.findByRole("toolbar", { name: "Reader controls" });
    const changed = screen.getByRole("list", { name: "Changed since you read them" });
    expect(
      within(changed)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Budget 2026.pdfChanged since you read it", "Risk register.pdfChanged since you read it"]);
    expect(
      within(changed)
        .getAllByRole("link")
        .map((flag) => [flag.getAttribute("aria-label"), flag.getAttribute("href")]),
    ).toEqual([
      ["Budget 2026.pdf changed since you read it: see what changed", "/documents/5/compare?from=1&to=3"],
      ["Risk register.pdf changed since you read it: see what changed", "/documents/8/compare?from=3&to=4"],
    ]);
  });

  it("says nothing when no paper changed since it was read", async () => {
    renderWithProviders(
      <PackReader
        meetingId={11}
        meetingTitle="Q3 Board"
        papers={[paper({ id: 6, name: "Minutes May.pdf" })]}
        openPdf={fakePdf(texts).open}
      />,
    );
    await screen.findByRole("toolbar", { name: "Reader controls" });
    expect(screen.queryByRole("list", { name: "Changed since you read them" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /changed since you read it/ })).not.toBeInTheDocument();
  });
});
