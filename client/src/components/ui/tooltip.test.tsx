import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Tooltip, TooltipProvider } from "@/components/ui/tooltip";

function Toolbar({ enabled = true }: { enabled?: boolean }) {
  return (
    <TooltipProvider enabled={enabled}>
      <Tooltip content="Edit">
        <button type="button" aria-label="Edit">
          e
        </button>
      </Tooltip>
      <Tooltip content="Delete">
        <button type="button" aria-label="Delete">
          d
        </button>
      </Tooltip>
    </TooltipProvider>
  );
}

describe("Tooltip", () => {
  // Real timers, with margins wide enough for a busy machine: not shown well before 700 ms, shown well after.
  const setup = () => userEvent.setup();
  const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

  it("shows after the pointer rests 700 ms, is linked by aria-describedby, and goes on leaving", async () => {
    const user = setup();
    render(<Toolbar />);
    const edit = screen.getByRole("button", { name: "Edit" });
    await user.hover(edit);
    await wait(300);
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
    await wait(700);
    const tooltip = screen.getByRole("tooltip");
    expect(tooltip).toHaveTextContent("Edit");
    expect(edit).toHaveAttribute("aria-describedby", tooltip.id);
    await user.unhover(edit);
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
    expect(edit).not.toHaveAttribute("aria-describedby");
  });

  it("opens the next one at once within 300 ms of the last closing, and waits again after that", async () => {
    const user = setup();
    render(<Toolbar />);
    await user.hover(screen.getByRole("button", { name: "Edit" }));
    await wait(1000);
    await user.hover(screen.getByRole("button", { name: "Delete" }));
    expect(screen.getByRole("tooltip")).toHaveTextContent("Delete");
    await user.unhover(screen.getByRole("button", { name: "Delete" }));
    await wait(500);
    await user.hover(screen.getByRole("button", { name: "Edit" }));
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
    await wait(1000);
    expect(screen.getByRole("tooltip")).toHaveTextContent("Edit");
  });

  it("closes on Escape and on a press", async () => {
    const user = setup();
    render(<Toolbar />);
    const edit = screen.getByRole("button", { name: "Edit" });
    await user.hover(edit);
    await wait(1000);
    expect(screen.getByRole("tooltip")).toBeInTheDocument();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
    await user.unhover(edit);
    await wait(500);
    await user.hover(edit);
    await wait(1000);
    expect(screen.getByRole("tooltip")).toBeInTheDocument();
    await user.click(edit);
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
  });

  it("shows nothing when tooltips are off", async () => {
    const user = setup();
    render(<Toolbar enabled={false} />);
    await user.hover(screen.getByRole("button", { name: "Edit" }));
    await wait(1000);
    expect(screen.queryByRole("tooltip")).not.toBeInTheDocument();
  });
});
