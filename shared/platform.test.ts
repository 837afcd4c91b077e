import {
  adminServiceFormSchema,
  adminSettingsServiceTypes,
  createPlatformServiceSchema,
  isMessagingService,
  platformServiceFormSchema,
  updatePlatformServiceSchema,
} from "./platform";

const messages = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues.map((issue) => issue.message) ?? [];

describe("platform service schemas", () => {
  it("uses the Platform Settings page's messages", () => {
    const result = platformServiceFormSchema.safeParse({ serviceName: "A", serviceKey: " ", isEnabled: true });
    expect(messages(result)).toEqual(["Service name must be at least 2 characters.", "Service key is required."]);
  });

  it("uses the admin pages' messages", () => {
    const result = adminServiceFormSchema.safeParse({ serviceName: "", serviceKey: "", isEnabled: true });
    expect(messages(result)).toEqual(["Service name is required", "Service key is required"]);
    // The admin forms accept a one-letter name; the server's stricter rule answers it.
    expect(adminServiceFormSchema.safeParse({ serviceName: "A", serviceKey: "k", isEnabled: true }).success).toBe(true);
  });

  it("defaults isEnabled to true on create and makes URL and description optional and nullable", () => {
    const parsed = createPlatformServiceSchema.parse({ serviceName: " OpenAI ", serviceKey: " sk-1 ", serviceUrl: null });
    expect(parsed).toEqual({ serviceName: "OpenAI", serviceKey: "sk-1", serviceUrl: null, isEnabled: true });
  });

  it("lets an update leave out every field, but not shorten a name below 2 characters", () => {
    expect(updatePlatformServiceSchema.parse({})).toEqual({});
    expect(messages(updatePlatformServiceSchema.safeParse({ serviceName: "x" }))).toEqual(["Service name must be at least 2 characters."]);
  });

  it("knows the messaging service by name in any letter case, and defaults the admin type select to the AI service", () => {
    expect(isMessagingService(" twilio ")).toBe(true);
    expect(isMessagingService("SendGrid")).toBe(false);
    expect(isMessagingService(undefined)).toBe(false);
    expect(adminSettingsServiceTypes[0]?.value).toBe("OpenAI");
  });
});
