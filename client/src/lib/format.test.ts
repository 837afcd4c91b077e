import { formatFileSize, formatLongDate, formatTime, initials } from "@/lib/format";

describe("formatFileSize", () => {
  it.each([
    [0, "0 Bytes"],
    [512, "512 Bytes"],
    [1023, "1023 Bytes"],
    [1024, "1.0 KB"],
    [1536, "1.5 KB"],
    [1024 * 1024 * 1.5, "1.5 MB"],
    [1024 * 1024 * 2.25, "2.3 MB"],
    [1024 ** 3, "1.0 GB"],
    [1024 ** 3 * 3, "3.0 GB"],
    [1024 ** 4 * 2, "2048.0 GB"],
  ])("%d bytes → %s", (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  it("treats nonsense as zero", () => {
    expect(formatFileSize(Number.NaN)).toBe("0 Bytes");
    expect(formatFileSize(-5)).toBe("0 Bytes");
  });
});

describe("dates", () => {
  it("uses the app's formats", () => {
    const date = new Date(2023, 6, 31, 14, 5);
    expect(formatLongDate(date)).toBe("July 31, 2023");
    expect(formatTime(date)).toBe("2:05 PM");
  });
});

describe("initials", () => {
  it("takes the first and last word", () => {
    expect(initials("Ada King Lovelace")).toBe("AL");
    expect(initials("ada")).toBe("A");
    expect(initials("  ")).toBe("?");
  });

  it("of a person uses first and last name, else the username", () => {
    expect(initials({ firstName: "Ada", lastName: "Lovelace", username: "ada" })).toBe("AL");
    expect(initials({ firstName: "cher", lastName: "" })).toBe("C");
    expect(initials({ firstName: null, lastName: null, username: "zed" })).toBe("Z");
    expect(initials({ firstName: null, lastName: null, username: null })).toBe("?");
  });
});
