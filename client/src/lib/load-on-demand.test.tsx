import { act, render, screen } from "@testing-library/react";
import { Suspense, useState } from "react";
import { PageErrorBoundary } from "@/components/page-error-boundary";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A download the test answers when it chooses. */
function pendingDownload() {
  let answer!: (module: { Greeting: typeof Greeting }) => void;
  let fail!: (error: Error) => void;
  const download = new Promise<{ Greeting: typeof Greeting }>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { download, answer: () => answer({ Greeting }), fail: () => fail(new Error("offline")) };
}

const suspenseFallback = vi.fn(() => <p>Suspended</p>);
function Fallback() {
  return suspenseFallback();
}

function drawn(component: ReturnType<typeof loadOnDemand<"Greeting", { name: string }>>) {
  return (
    <Suspense fallback={<Fallback />}>
      <WhenLoaded component={component} placeholder={<p>Loading</p>} props={{ name: "Ada" }} />
    </Suspense>
  );
}

beforeEach(() => suspenseFallback.mockClear());

describe("WhenLoaded", () => {
  it("shows its placeholder until the code is here, then the component, with no Suspense fallback on the way", async () => {
    const { download, answer } = pendingDownload();
    const Lazy = loadOnDemand(() => download, "Greeting");
    render(drawn(Lazy));
    expect(screen.getByText("Loading")).toBeInTheDocument();
    answer();
    expect(await screen.findByText("Hello Ada")).toBeInTheDocument();
    // React holds a Suspense boundary's content back for 300 ms after its fallback shows: it never showed here.
    expect(suspenseFallback).not.toHaveBeenCalled();
  });

  it("draws a component already downloaded in its first render, and downloads it once", () => {
    const load = vi.fn(async () => ({ Greeting }));
    const Lazy = loadOnDemand(load, "Greeting");
    Lazy.preload();
    return Lazy.whenSettled().then(() => {
      render(drawn(Lazy));
      expect(screen.getByText("Hello Ada")).toBeInTheDocument();
      expect(load).toHaveBeenCalledTimes(1);
      expect(suspenseFallback).not.toHaveBeenCalled();
    });
  });

  it("after a failed download, drawing the component asks again", async () => {
    const first = pendingDownload();
    const load = vi.fn().mockReturnValueOnce(first.download).mockResolvedValue({ Greeting });
    const Lazy = loadOnDemand<"Greeting", { name: string }>(load, "Greeting");
    render(drawn(Lazy));
    first.fail();
    expect(await screen.findByText("Hello Ada")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("draws the component once a second download succeeds, even when something else redraws meanwhile", async () => {
    const first = pendingDownload();
    const second = pendingDownload();
    const load = vi.fn().mockReturnValueOnce(first.download).mockReturnValueOnce(second.download);
    const Lazy = loadOnDemand<"Greeting", { name: string }>(load, "Greeting");
    let redrawAround!: () => void;
    function Around() {
      const [, setDraws] = useState(0);
      redrawAround = () => setDraws((draws) => draws + 1);
      return drawn(Lazy);
    }
    render(<Around />);
    await act(async () => first.fail());
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    act(() => redrawAround());
    await act(async () => second.answer());
    expect(await screen.findByText("Hello Ada")).toBeInTheDocument();
  });

  it("throws to the error boundary when the second download fails too", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const load = vi.fn().mockRejectedValue(new Error("offline"));
    const Lazy = loadOnDemand<"Greeting", { name: string }>(load, "Greeting");
    render(<PageErrorBoundary resetKey="/">{drawn(Lazy)}</PageErrorBoundary>);
    expect(await screen.findByRole("alert")).toHaveTextContent("This page could not be loaded.");
    expect(load).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
  });
});
