import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { Switch } from "@/components/ui/switch";

function Labelled({ disabled = false, onChange }: { disabled?: boolean; onChange: (on: boolean) => void }) {
  const [on, setOn] = useState(false);
  return (
    <>
      <Switch
        id="receipts"
        checked={on}
        disabled={disabled}
        onCheckedChange={(next) => {
          setOn(next);
          onChange(next);
        }}
      />
      <label htmlFor="receipts">Read receipts</label>
    </>
  );
}

describe("Switch", () => {
  it("is a switch named by its label, announced with its state, toggled by a click, by Space and Enter, and by its label", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Labelled onChange={onChange} />);
    const receipts = screen.getByRole("switch", { name: "Read receipts" });
    expect(receipts).not.toBeChecked();

    await user.click(receipts);
    expect(receipts).toBeChecked();
    expect(receipts).toHaveAttribute("data-state", "checked");
    await user.keyboard(" ");
    expect(receipts).not.toBeChecked();
    await user.keyboard("{Enter}");
    expect(receipts).toBeChecked();
    await user.click(screen.getByText("Read receipts"));
    expect(receipts).not.toBeChecked();
    expect(onChange.mock.calls).toEqual([[true], [false], [true], [false]]);
  });

  it("does nothing while disabled", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Labelled disabled onChange={onChange} />);
    await user.click(screen.getByRole("switch", { name: "Read receipts" }));
    expect(onChange).not.toHaveBeenCalled();
  });
});
