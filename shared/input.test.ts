import { z } from "zod/mini";
import { controlCharacterMessage, dateInput, id, isoTimestamp, limits, maxId, parseId, password, text } from "./input";

const parse = <T extends z.ZodMiniType>(schema: T, value: unknown) => z.safeParse(schema, value);

describe("text", () => {
  const field = text({ max: 5, min: 1, requiredMessage: "Required" });

  it("trims and bounds", () => {
    expect(parse(field, "  abc  ").data).toBe("abc");
    expect(parse(field, "   ").error?.issues[0]?.message).toBe("Required");
    expect(parse(field, "abcdef").error?.issues[0]?.message).toBe("At most 5 characters");
  });

  it("refuses NUL and the other control characters, but not tab, newline or carriage return", () => {
    for (const character of ["\u0000", "\u0001", "\u0008", "\u000B", "\u001B", "\u007F"]) {
      expect(parse(field, `a${character}b`).error?.issues[0]?.message).toBe(controlCharacterMessage);
    }
    expect(parse(text({ max: 20 }), "a\tb\r\nc").success).toBe(true);
  });

  it("keeps a password's spaces and bounds it", () => {
    expect(parse(password("Too short"), "  secret  ").data).toBe("  secret  ");
    expect(parse(password("Too short"), "x".repeat(limits.password + 1)).success).toBe(false);
  });
});

describe("id", () => {
  it("takes a number or a string of digits within Postgres' integer range", () => {
    expect(parse(id(), 7).data).toBe(7);
    expect(parse(id(), "42").data).toBe(42);
    expect(parse(id(), maxId).data).toBe(maxId);
  });

  it.each([0, -1, 1.5, maxId + 1, 4294967296, "2147483648", "12a", "", " ", null, true, {}])("refuses %j", (value) => {
    expect(parse(id("Bad id"), value).error?.issues[0]?.message).toBe("Bad id");
    expect(parseId(value)).toBeNull();
  });
});

describe("isoTimestamp", () => {
  const field = isoTimestamp("Date must be an ISO date and time");

  it("answers a Date for an ISO timestamp with an offset", () => {
    expect(parse(field, "2026-05-01T10:00:00+02:00").data).toEqual(new Date("2026-05-01T08:00:00.000Z"));
  });

  it.each(["0000-01-01T00:00:00Z", "1899-12-31T23:59:59Z", "+010000-01-01T00:00:00Z", "2026-13-01T00:00:00Z", "2026-05-01", "soon"])(
    "refuses %s",
    (value) => {
      expect(parse(field, value).success).toBe(false);
    },
  );

  it("accepts the first and last storable instants", () => {
    expect(parse(field, "1900-01-01T00:00:00Z").success).toBe(true);
    expect(parse(field, "9999-12-31T23:59:59Z").success).toBe(true);
  });
});

describe("dateInput", () => {
  it("takes a form's date within the storable years", () => {
    expect(parse(dateInput("Date is required"), "2026-05-01").success).toBe(true);
    expect(parse(dateInput("Date is required"), "0000-05-01").success).toBe(false);
    expect(parse(dateInput("Date is required"), "").error?.issues).toHaveLength(1);
  });
});
