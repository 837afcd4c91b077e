import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { VirtualList, type ColumnBreakpoint } from "@/components/virtual-list";

// jsdom has no layout: every element measures 0 and the window is 1024 × 768. The list must still render a first
// window of rows from its estimate, never all of them, and never none.
interface Paper {
  id: number;
  name: string;
}
const papers = (count: number): Paper[] => Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `Paper ${index + 1}` }));
const paperKey = (paper: Paper) => paper.id;
const twoColumns: readonly ColumnBreakpoint[] = [{ minWidth: "40rem", count: 2 }];

function Papers({ items, columns }: { items: Paper[]; columns?: readonly ColumnBreakpoint[] }) {
  return (
    <VirtualList
      label="Papers"
      items={items}
      getKey={paperKey}
      estimateSize={60}
      gap={12}
      columns={columns}
      renderItem={(paper) => <button type="button">{paper.name}</button>}
    />
  );
}

const rows = () => within(screen.getByRole("list", { name: "Papers" })).getAllByRole("listitem");

function scrollWindowTo(y: number) {
  // The virtualizer ends a scroll on a timer of its own: caught and run here, it cannot fire after the file's window is
  // gone (where it threw "window is not defined").
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    act(() => {
      Object.defineProperty(window, "scrollY", { configurable: true, value: y });
      window.dispatchEvent(new Event("scroll"));
    });
    act(() => {
      vi.runOnlyPendingTimers();
    });
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => {
  Object.defineProperty(window, "scrollY", { configurable: true, value: 0 });
});

describe("VirtualList", () => {
  it("renders the first window of a long list, each row telling its place in the whole", () => {
    render(<Papers items={papers(3_000)} />);
    const shown = rows();
    // 768 px of 72 px rows, and a few beyond the edge: a dozen or so of 3,000.
    expect(shown.length).toBeGreaterThanOrEqual(11);
    expect(shown.length).toBeLessThanOrEqual(20);
    expect(shown[0]).toHaveTextContent("Paper 1");
    expect(shown.map((row) => row.getAttribute("aria-posinset"))).toEqual(shown.map((_, index) => String(index + 1)));
    for (const row of shown) expect(row).toHaveAttribute("aria-setsize", "3000");
    // The list is as tall as all its rows would be, so the page scrolls to the last.
    expect(screen.getByRole("list", { name: "Papers" }).style.height).toBe(`${3_000 * 72 - 12}px`);
  });

  it("renders every row of a short list", () => {
    render(<Papers items={papers(4)} />);
    expect(rows().map((row) => row.textContent)).toEqual(["Paper 1", "Paper 2", "Paper 3", "Paper 4"]);
  });

  it("renders the rows the page is scrolled to, up to the last", () => {
    render(<Papers items={papers(3_000)} />);
    scrollWindowTo(1_500 * 72);
    expect(rows().map((row) => row.textContent)).toContain("Paper 1501");
    expect(screen.queryByText("Paper 1")).not.toBeInTheDocument();
    scrollWindowTo(3_000 * 72 - 768);
    const last = rows().at(-1)!;
    expect(last).toHaveTextContent("Paper 3000");
    expect(last).toHaveAttribute("aria-posinset", "3000");
  });

  it("keeps the row that holds focus when the page scrolls far from it, so focus is not lost", async () => {
    const user = userEvent.setup();
    render(<Papers items={papers(3_000)} />);
    await user.click(screen.getByRole("button", { name: "Paper 3" }));
    expect(screen.getByRole("button", { name: "Paper 3" })).toHaveFocus();
    scrollWindowTo(2_000 * 72);
    expect(screen.getByRole("button", { name: "Paper 2001" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Paper 3" })).toHaveFocus();
    // Tab goes on from it into the rows now on screen.
    await user.tab();
    expect(document.activeElement?.textContent).toMatch(/^Paper 19\d\d$/);
  });

  it("lays items out in rows of as many columns as the width's media query says, in reading order", () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...matchMedia(query),
      matches: query === "(min-width: 40rem)",
    })) as typeof window.matchMedia;
    try {
      render(<Papers items={papers(3_000)} columns={twoColumns} />);
      const shown = rows();
      expect(shown.length % 2).toBe(0);
      expect(shown.slice(0, 4).map((row) => row.textContent)).toEqual(["Paper 1", "Paper 2", "Paper 3", "Paper 4"]);
      expect(shown[0]!.parentElement).toBe(shown[1]!.parentElement);
      expect(shown[0]!.parentElement).toHaveStyle({ gridTemplateColumns: "repeat(2, minmax(0, 1fr))" });
      // Half as many rows, so the list is half as tall.
      expect(screen.getByRole("list", { name: "Papers" }).style.height).toBe(`${1_500 * 72 - 12}px`);
    } finally {
      window.matchMedia = matchMedia;
    }
  });
});
