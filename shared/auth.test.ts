import { loginSchema, registerSchema } from "./auth";
import { displayName } from "./people";
import { hasRoleAtLeast, roleLabel } from "./roles";

describe("registerSchema", () => {
  it("uses the messages users see", () => {
    const result = registerSchema.safeParse({ username: "ab", email: "nope", password: "12345" });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((issue) => issue.message);
    expect(messages).toEqual([
      "Username must be at least 3 characters",
      "Please enter a valid email address",
      "Password must be at least 6 characters",
    ]);
  });

  it("accepts a valid registration without names", () => {
    expect(registerSchema.safeParse({ username: "ada", email: "ada@example.com", password: "secret1" }).success).toBe(true);
  });
});

describe("loginSchema", () => {
  it("requires both fields, saying which", () => {
    const result = loginSchema.safeParse({ username: " ", password: "" });
    expect(result.error!.issues.map((issue) => issue.message)).toEqual(["Username is required", "Password is required"]);
  });
});

describe("roles", () => {
  it("labels roles as the screens show them", () => {
    expect(["founder", "admin", "member", "observer", "other"].map(roleLabel)).toEqual([
      "Founder / Admin",
      "Admin",
      "Board Member",
      "Observer",
      "Observer",
    ]);
  });

  it("orders roles founder > admin > member > observer", () => {
    expect(hasRoleAtLeast("admin", "member")).toBe(true);
    expect(hasRoleAtLeast("member", "admin")).toBe(false);
    expect(hasRoleAtLeast(null, "observer")).toBe(false);
  });

  it("falls back to the username for a display name", () => {
    expect(displayName({ firstName: "Ada", lastName: "Lovelace", username: "ada" })).toBe("Ada Lovelace");
    expect(displayName({ firstName: "", lastName: null, username: "ada" })).toBe("ada");
  });
});
