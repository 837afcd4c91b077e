import { act, render, screen } from "@testing-library/react";
import { NearView } from "@/features/companies/components/near-view";

/** An IntersectionObserver whose reports the test makes, for jsdom, which has none. */
function stubIntersection() {
  const observers: { report: IntersectionObserverCallback; rootMargin?: string; observed: Element[] }[] = [];
  vi.stubGlobal(
    "IntersectionObserver",
    class {
      readonly observer;
      constructor(report: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        this.observer = { report, rootMargin: options?.rootMargin, observed: [] as Element[] };
        observers.push(this.observer);
      }
      observe(element: Element) {
        this.observer.observed.push(element);
      }
      disconnect() {
        this.observer.observed = [];
      }
    },
  );
  const near = (isIntersecting: boolean) =>
    act(() => {
      for (const { report, observed } of observers)
        report(
          observed.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
          {} as IntersectionObserver,
        );
    });
  return { observers, near };
}

/** A requestIdleCallback whose idle moment the test makes. */
function stubIdle() {
  const waiting = new Map<number, IdleRequestCallback>();
  let next = 1;
  vi.stubGlobal("requestIdleCallback", (callback: IdleRequestCallback) => {
    waiting.set(next, callback);
    return next++;
  });
  vi.stubGlobal("cancelIdleCallback", (id: number) => waiting.delete(id));
  const idle = () =>
    act(() => {
      for (const callback of waiting.values()) callback({ didTimeout: false, timeRemaining: () => 10 } as IdleDeadline);
      waiting.clear();
    });
  return { waiting, idle };
}

afterEach(() => vi.unstubAllGlobals());

describe("NearView", () => {
  it("draws its placeholder until the placeholder comes within the margin of the view, then its children", () => {
    const { observers, near } = stubIntersection();
    const { waiting } = stubIdle();
    render(
      <NearView placeholder={<p>Not yet</p>}>
        <p>Governance</p>
      </NearView>,
    );
    expect(screen.getByText("Not yet")).toBeInTheDocument();
    expect(observers.map((observer) => observer.rootMargin)).toEqual(["200px"]);

    near(false);
    expect(screen.queryByText("Governance")).not.toBeInTheDocument();

    near(true);
    expect(screen.getByText("Governance")).toBeInTheDocument();
    expect(screen.queryByText("Not yet")).not.toBeInTheDocument();
    expect(observers[0]!.observed).toEqual([]);
    expect(waiting.size).toBe(0);
  });

  it("draws its children once the browser is idle, out of view (a screen reader finds the section without scrolling)", () => {
    const { observers, near } = stubIntersection();
    const { idle } = stubIdle();
    render(
      <NearView placeholder={<p>Not yet</p>}>
        <h2>Governance</h2>
      </NearView>,
    );
    near(false);
    expect(screen.queryByRole("heading", { name: "Governance" })).not.toBeInTheDocument();

    idle();
    expect(screen.getByRole("heading", { name: "Governance" })).toBeInTheDocument();
    expect(observers[0]!.observed).toEqual([]);
  });

  it("draws its children at once where the browser cannot tell what is near the view", () => {
    vi.stubGlobal("IntersectionObserver", undefined);
    render(
      <NearView placeholder={<p>Not yet</p>}>
        <p>Governance</p>
      </NearView>,
    );
    expect(screen.getByText("Governance")).toBeInTheDocument();
  });
});
