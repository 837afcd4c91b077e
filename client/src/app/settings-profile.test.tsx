import { screen, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import * as accountApi from "@shared/api/account";
import { buildUser } from "@/testing/factories";
import { handle, malformed } from "@/testing/handle";
import { server } from "@/testing/server";
import { renderSettings } from "@/testing/settings-fixtures";
import { findToast } from "@/testing/toasts";

const sidebar = () => screen.getByRole("complementary", { name: "Sidebar" });

describe("Settings page", () => {
  it("shows four tabs, the profile first with the user's avatar initials, name, e-mail and role", async () => {
    renderSettings({ user: buildUser({ id: 7, firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", role: "admin" }) });
    expect(await screen.findByRole("heading", { level: 1, name: "Settings" })).toBeInTheDocument();
    expect(screen.getAllByRole("tab").map((tab) => tab.textContent)).toEqual(["Profile", "Security", "Notifications", "Preferences"]);
    const summary = screen.getByTestId("profile-summary");
    expect(within(summary).getByText("AL")).toBeInTheDocument();
    expect(within(summary).getByText("Ada Lovelace")).toBeInTheDocument();
    expect(within(summary).getByText("ada@example.com")).toBeInTheDocument();
    expect(within(summary).getByText("Admin")).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveValue("Ada");
    expect(screen.getByLabelText("Email")).toHaveValue("ada@example.com");
  });
});

describe("Profile", () => {
  it("saves the profile with PATCH, toasts, and the sidebar shows the new name at once", async () => {
    const { user, sent } = renderSettings();
    const firstName = await screen.findByLabelText("First name");
    await user.clear(firstName);
    await user.type(firstName, "Augusta");
    await user.type(screen.getByLabelText("Profile image URL"), "https://images.example.com/a.png");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    await findToast("Profile updated");
    expect(sent).toEqual([
      {
        method: "PATCH",
        path: "profile",
        body: {
          firstName: "Augusta",
          lastName: "Lovelace",
          email: "user7@example.com",
          profileImageUrl: "https://images.example.com/a.png",
        },
      },
    ]);
    expect(within(sidebar()).getByText("Augusta Lovelace")).toBeInTheDocument();
  });

  it("shows the profile messages and sends nothing while they stand", async () => {
    const { user, sent } = renderSettings();
    await user.clear(await screen.findByLabelText("First name"));
    await user.clear(screen.getByLabelText("Last name"));
    await user.clear(screen.getByLabelText("Email"));
    await user.type(screen.getByLabelText("Email"), "nope");
    await user.type(screen.getByLabelText("Profile image URL"), "http://example.com/a.png");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByText("First name is required")).toBeInTheDocument();
    expect(screen.getByText("Last name is required")).toBeInTheDocument();
    expect(screen.getByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Please enter a valid https URL")).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveAttribute("aria-invalid", "true");
    expect(sent).toEqual([]);
  });

  it("puts a taken e-mail on the field and toasts 'Failed to update profile: …'", async () => {
    const { user } = renderSettings();
    // The declaration lists no 409 for a profile change (a new address waits for its link), yet the form still puts
    // a conflict's message on the field it names: an answer the contract does not allow, sent as is.
    server.use(
      handle(accountApi.updateProfile, () => malformed(HttpResponse.json({ message: "Email already registered" }, { status: 409 })), {
        params: { id: 7 },
      }),
    );
    const email = await screen.findByLabelText("Email");
    await user.clear(email);
    await user.type(email, "taken@example.com");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    const toast = await findToast("Error");
    expect(toast).toHaveTextContent("Failed to update profile: Email already registered");
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription(expect.stringContaining("Email already registered"));
  });
});
