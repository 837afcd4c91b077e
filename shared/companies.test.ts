import {
  addMemberSchema,
  inviteSchema,
  isAcceptableLogoUrl,
  memberRequestSchema,
  onboardingFormSchema,
  onboardingToCompany,
  roleChangeSchema,
} from "./companies";
import {
  industryLabel,
  onboardingIndustries,
  onboardingStages,
  optionsWithCurrent,
  settingsIndustries,
  settingsStages,
  stageLabel,
} from "./options";

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];

describe("onboardingFormSchema", () => {
  it("reports every missing field at once, location included", () => {
    const result = onboardingFormSchema.safeParse({ name: "", industry: "", stage: "", city: " ", country: "", website: "acme" });
    expect(messages(result)).toEqual([
      ["name", "Company name is required"],
      ["industry", "Industry is required"],
      ["stage", "Funding stage is required"],
      ["website", "Please enter a valid URL"],
      ["city", "Location is required"],
    ]);
  });

  it("accepts a city or a country alone, and combines them into the location", () => {
    const values = {
      name: "Acme",
      industry: "energy",
      stage: "seed",
      city: "",
      country: "Kenya",
      website: "",
      employeeCount: "" as const,
      logoUrl: "",
    };
    expect(onboardingFormSchema.safeParse(values).success).toBe(true);
    expect(onboardingToCompany({ ...values, city: " Nairobi " })).toEqual({
      name: "Acme",
      industry: "energy",
      stage: "seed",
      location: "Nairobi, Kenya",
      description: null,
      website: null,
      employeeCount: null,
      logoUrl: null,
    });
  });
});

describe("member schemas", () => {
  it("use the messages users see", () => {
    expect(messages(addMemberSchema.safeParse({}))).toEqual([
      ["email", "Invalid email address"],
      ["firstName", "First name is required"],
      ["lastName", "Last name is required"],
      ["role", "Role is required"],
      ["password", "Password must be at least 6 characters"],
    ]);
    expect(messages(inviteSchema.safeParse({ email: "x@", role: "" }))).toEqual([
      ["email", "Please enter a valid email"],
      ["role", "Role is required"],
    ]);
    expect(roleChangeSchema.safeParse({ role: "admin", companyId: "7" }).data).toEqual({ role: "admin", companyId: 7 });
  });

  it("judge a members request with a password as an addition, one without as an invitation, each with its own messages", () => {
    const addition = { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", role: "member", password: "secret-1" };
    expect(memberRequestSchema.safeParse(addition).data).toEqual(addition);
    expect(messages(memberRequestSchema.safeParse({ ...addition, password: "short" }))).toEqual([
      ["password", "Password must be at least 6 characters"],
    ]);
    // An empty password is no password: an invitation, which neither needs nor keeps the names.
    expect(memberRequestSchema.safeParse({ email: "ada@example.com", role: "member", password: "" }).data).toEqual({
      email: "ada@example.com",
      role: "member",
    });
    expect(messages(memberRequestSchema.safeParse({ email: "ada@", role: "" }))).toEqual([
      ["email", "Please enter a valid email"],
      ["role", "Role is required"],
    ]);
  });
});

describe("logo URLs", () => {
  it("accept image data URLs and https addresses only", () => {
    expect(isAcceptableLogoUrl("data:image/png;base64,iVBORw0KGgo=")).toBe(true);
    expect(isAcceptableLogoUrl("data:image/svg+xml;base64,PHN2Zz4=")).toBe(true);
    expect(isAcceptableLogoUrl("https://cdn.example.com/logo.png")).toBe(true);
    for (const bad of ["data:text/html;base64,PGI+", "http://cdn.example.com/x.png", "javascript:alert(1)", "data:image/png,raw"]) {
      expect(isAcceptableLogoUrl(bad), bad).toBe(false);
    }
  });
});

describe("option lists", () => {
  it("are the forms' lists, with their labels", () => {
    expect(onboardingIndustries.map((option) => option.label)).toEqual([
      "Technology",
      "Healthcare",
      "Finance",
      "Education",
      "Retail",
      "Manufacturing",
      "Energy",
      "Media & Entertainment",
      "Transportation",
      "Other",
    ]);
    expect(onboardingStages.map((option) => option.value)).toEqual([
      "pre-seed",
      "seed",
      "series-a",
      "series-b",
      "series-c",
      "profitable",
      "public",
    ]);
    expect(stageLabel("series-c")).toBe("Series C or later");
    expect(settingsIndustries.map((option) => option.label)).toEqual([
      "Technology",
      "Healthcare",
      "Finance",
      "Education",
      "Real Estate",
      "Retail",
      "Manufacturing",
      "Other",
    ]);
    expect(settingsStages.map((option) => option.label)).toEqual([
      "Pre-seed",
      "Seed",
      "Series A",
      "Series B",
      "Series C",
      "Series D+",
      "Public",
    ]);
  });

  it("keep a stored value the list lacks, and label free text as it is", () => {
    expect(optionsWithCurrent(settingsIndustries, "energy", industryLabel).at(-1)).toEqual({ value: "energy", label: "Energy" });
    expect(optionsWithCurrent(settingsIndustries, "finance", industryLabel)).toBe(settingsIndustries);
    expect(industryLabel("Aerospace")).toBe("Aerospace");
  });
});
