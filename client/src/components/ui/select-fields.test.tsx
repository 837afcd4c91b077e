import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useForm } from "react-hook-form";
import { Form } from "@/components/ui/form";
import { SelectField } from "@/components/ui/select-fields";

const stages = [
  { value: "seed", label: "Seed" },
  { value: "series-a", label: "Series A" },
];

/** A form with one select field; `onSubmit` sees its values, and a submit without a stage marks the field invalid. */
function StageForm({ onSubmit }: { onSubmit: (values: { stage: string }) => void }) {
  const form = useForm<{ stage: string }>({ defaultValues: { stage: "" } });
  return (
    <Form {...form}>
      <form
        onSubmit={form.handleSubmit((values) => {
          if (values.stage) onSubmit(values);
          else form.setError("stage", { message: "Choose a stage" }, { shouldFocus: true });
        })}
      >
        <SelectField control={form.control} name="stage" label="Stage" options={stages} placeholder="Choose a stage" />
        <button type="submit">Save</button>
      </form>
    </Form>
  );
}

describe("a form's select field, its list loaded when first opened", () => {
  it("is named by its label, shows its placeholder, and is marked and focused when the form refuses it", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<StageForm onSubmit={onSubmit} />);
    const stage = screen.getByRole("combobox", { name: "Stage" });
    expect(stage).toHaveTextContent("Choose a stage");
    expect(stage).toHaveAttribute("data-placeholder");

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(stage).toHaveAttribute("aria-invalid", "true");
    expect(stage).toHaveAccessibleDescription("Choose a stage");
    expect(stage).toHaveFocus();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("opens at the first press, and the chosen option is the field's value", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<StageForm onSubmit={onSubmit} />);
    await user.click(screen.getByRole("combobox", { name: "Stage" }));
    await user.click(await screen.findByRole("option", { name: "Series A" }));
    expect(screen.getByRole("combobox", { name: "Stage" })).toHaveTextContent("Series A");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(onSubmit).toHaveBeenCalledWith({ stage: "series-a" });
  });
});
