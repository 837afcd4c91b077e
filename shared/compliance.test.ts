import { calendarFeedAddressSchema, calendarFeedQuerySchema } from "./compliance-schemas";

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];

describe("calendarFeedQuerySchema", () => {
  it("takes a company id given as digits, or none", () => {
    expect(calendarFeedQuerySchema.parse({ companyId: "7" })).toEqual({ companyId: 7 });
    expect(calendarFeedQuerySchema.parse({})).toEqual({});
  });

  it("refuses anything else that names a company, empty included", () => {
    for (const companyId of ["abc", "", "0", "2147483648", ["7", "8"]]) {
      expect(messages(calendarFeedQuerySchema.safeParse({ companyId })), String(companyId)).toEqual([
        ["companyId", "companyId must be a company id"],
      ]);
    }
  });
});

describe("calendarFeedAddressSchema", () => {
  it("names each missing or empty part", () => {
    expect(messages(calendarFeedAddressSchema.safeParse({}))).toEqual([
      ["user", "user is required"],
      ["company", "company is required"],
      ["key", "key is required"],
    ]);
    expect(messages(calendarFeedAddressSchema.safeParse({ user: "1", company: "", key: "k" }))).toEqual([
      ["company", "company is required"],
    ]);
  });

  it("reads a part that cannot be an id as null and a key that is not text as empty: no feed, not a bad request", () => {
    expect(calendarFeedAddressSchema.parse({ user: "3", company: "9", key: "secret" })).toEqual({ user: 3, company: 9, key: "secret" });
    expect(calendarFeedAddressSchema.parse({ user: "abc", company: ["1", "2"], key: ["a", "b"] })).toEqual({
      user: null,
      company: null,
      key: "",
    });
  });
});
