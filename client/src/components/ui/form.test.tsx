import { zodResolver } from "@hookform/resolvers/zod";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";

const schema = z.object({
  plain: z.string().min(1, "Plain is required"),
  described: z.string().min(1, "Described is required"),
});

function TwoFields() {
  const form = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { plain: "", described: "" } });
  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(() => undefined)}>
        <LabeledField control={form.control} name="plain" label="Plain">
          {(field) => <Input {...field} />}
        </LabeledField>
        <LabeledField control={form.control} name="described" label="Described" description="Shown to members.">
          {(field) => <Input {...field} />}
        </LabeledField>
        <button type="submit">Save</button>
      </form>
    </Form>
  );
}

describe("LabeledField", () => {
  it("describes the control by its description from the first render, and by the message once there is an error", async () => {
    render(<TwoFields />);
    expect(screen.getByLabelText("Plain")).not.toHaveAttribute("aria-describedby");
    expect(screen.getByLabelText("Described")).toHaveAccessibleDescription("Shown to members.");

    await userEvent.setup().click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Plain is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Plain")).toHaveAccessibleDescription("Plain is required");
    expect(screen.getByLabelText("Described")).toHaveAccessibleDescription("Shown to members. Described is required");
    expect(screen.getByLabelText("Described")).toHaveAttribute("aria-invalid", "true");
  });
});
