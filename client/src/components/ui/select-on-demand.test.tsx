import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import * as selectModule from "@/components/ui/select";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";
import { SelectOnDemand } from "@/components/ui/select-on-demand";

/** Radix's select, answered when `arrive` is called (each test downloads afresh). */
function loader() {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const load = vi.fn(async () => {
    await arrived;
    return selectModule;
  });
  return { load, arrive: () => arrive() };
}

const colours = { red: "Red", blue: "Blue" } as const;

/** SelectOnDemand's way, with a loader of the test's own. */
function Colours({ load }: { load: () => Promise<typeof selectModule> }) {
  const [value, setValue] = useState("red");
  const { popup, standIn, triggerRef } = usePopupOnDemand("listbox", load);
  if (!popup) {
    return (
      <button type="button" role="combobox" aria-label="Colour" {...standIn}>
        {colours[value as keyof typeof colours]}
      </button>
    );
  }
  const { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } = popup;
  return (
    <Select value={value} onValueChange={setValue}>
      <SelectTrigger ref={triggerRef} aria-label="Colour">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {Object.entries(colours).map(([key, label]) => (
          <SelectItem key={key} value={key}>
            {label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

describe("a select loaded on demand", () => {
  it("stands in as a closed combobox showing the chosen option, and downloads nothing until pointed at, focused or pressed", async () => {
    const { load } = loader();
    render(<Colours load={load} />);
    const combobox = screen.getByRole("combobox", { name: "Colour" });
    expect(combobox).toHaveTextContent("Red");
    expect(combobox).toHaveAttribute("aria-expanded", "false");
    expect(load).not.toHaveBeenCalled();
    await userEvent.setup().hover(combobox);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("opens at the first click once its code has arrived, and the next click on an option chooses it", async () => {
    const { load, arrive } = loader();
    const user = userEvent.setup();
    render(<Colours load={load} />);
    await user.click(screen.getByRole("combobox", { name: "Colour" }));
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();

    arrive();
    await user.click(await screen.findByRole("option", { name: "Blue" }));
    await waitFor(() => expect(screen.queryByRole("listbox")).not.toBeInTheDocument());
    expect(screen.getByRole("combobox", { name: "Colour" })).toHaveTextContent("Blue");
  });

  it("opens at a finger's tap (its click) once its code has arrived", async () => {
    const { load, arrive } = loader();
    const user = userEvent.setup();
    render(<Colours load={load} />);
    await user.pointer({ keys: "[TouchA]", target: screen.getByRole("combobox", { name: "Colour" }) });
    expect(load).toHaveBeenCalledTimes(1);

    arrive();
    expect(await screen.findByRole("listbox")).toBeInTheDocument();
  });

  it.each([
    ["Enter", "{Enter}"],
    ["Space", " "],
    ["ArrowUp", "{ArrowUp}"],
    ["ArrowDown", "{ArrowDown}"],
  ])("opens at the first %s, with focus on the chosen option", async (_key, keys) => {
    const { load, arrive } = loader();
    const user = userEvent.setup();
    render(<Colours load={load} />);
    await user.tab();
    await user.keyboard(keys);

    arrive();
    await waitFor(() => expect(screen.getByRole("option", { name: "Red" })).toHaveFocus());
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("draws the chosen option's label, and Radix's select once opened", async () => {
    const user = userEvent.setup();
    const choose = vi.fn();
    const options = [
      { value: "All", label: "All Categories" },
      { value: "Legal", label: "Legal" },
    ];
    render(<SelectOnDemand label="Filter by category" value="All" options={options} onValueChange={choose} />);
    expect(screen.getByRole("combobox", { name: "Filter by category" })).toHaveTextContent("All Categories");

    await user.click(screen.getByRole("combobox", { name: "Filter by category" }));
    await user.click(await screen.findByRole("option", { name: "Legal" }));
    expect(choose).toHaveBeenCalledWith("Legal");
  });
});
