import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { PageErrorBoundary } from "@/components/page-error-boundary";

function Broken(): never {
  throw new Error("render failed");
}

describe("PageErrorBoundary", () => {
  beforeEach(() => vi.spyOn(console, "error").mockImplementation(() => undefined));
  afterEach(() => vi.restoreAllMocks());

  it("shows that the page could not be loaded, and clears when another address opens", () => {
    const { rerender } = render(
      <PageErrorBoundary resetKey="/meetings">
        <Broken />
      </PageErrorBoundary>,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("This page could not be loaded. Check your connection and try again.");
    rerender(
      <PageErrorBoundary resetKey="/documents">
        <p>Documents</p>
      </PageErrorBoundary>,
    );
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByText("Documents")).toBeInTheDocument();
  });

  it("reloads the app from Try again", async () => {
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload });
    render(
      <PageErrorBoundary resetKey="/meetings">
        <Broken />
      </PageErrorBoundary>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
