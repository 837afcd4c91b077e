import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { LogoUpload, logoHint } from "@/features/companies/components/logo-upload";

function Picker({ error }: { error?: string }) {
  const [value, setValue] = useState<string | null>(null);
  return <LogoUpload value={value} onChange={setValue} error={error} />;
}

describe("LogoUpload", () => {
  it("names the focusable button with the field's label and describes it with the hint", async () => {
    render(<Picker />);
    const button = screen.getByRole("button", { name: "Company logo: Upload logo" });
    expect(button).toHaveAccessibleDescription(logoHint);
    expect(button).not.toHaveAttribute("aria-invalid");

    await userEvent.setup().tab();
    expect(button).toHaveFocus();
  });

  it("puts the form's error on the button", () => {
    render(<Picker error="The server refused the logo" />);
    const button = screen.getByRole("button", { name: "Company logo: Upload logo" });
    expect(button).toHaveAttribute("aria-invalid", "true");
    expect(button).toHaveAccessibleDescription(`${logoHint} The server refused the logo`);
  });

  it("puts a refused file's problem on the button", async () => {
    render(<Picker />);
    await userEvent
      .setup({ applyAccept: false })
      .upload(screen.getByLabelText("Company logo"), new File(["%PDF-1.4"], "minutes.pdf", { type: "application/pdf" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The logo must be an image file");
    const button = screen.getByRole("button", { name: "Company logo: Upload logo" });
    expect(button).toHaveAttribute("aria-invalid", "true");
    expect(button).toHaveAccessibleDescription(expect.stringContaining("The logo must be an image file"));
  });
});
