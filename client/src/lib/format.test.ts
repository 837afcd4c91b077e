import { format } from "date-fns";
import {
  DATE_FORMAT_LONG,
  DAY_MONTH_TIME_FORMAT,
  DATE_INPUT_FORMAT,
  formatDateInput,
  formatDayMonthTime,
  formatFileSize,
  formatLongDate,
  formatTime,
  initials,
  TIME_FORMAT,
} from "@/lib/format";

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
    expect(formatDateInput(date)).toBe("2023-07-31");
    expect(formatDayMonthTime(date)).toBe("31 Jul 14:05");
  });

  it("write what date-fns writes with the same patterns, at every hour of days across the year", () => {
    for (let day = 0; day < 366; day += 7) {
      for (let hour = 0; hour < 24; hour++) {
        const date = new Date(2024, 0, 1 + day, hour, (day * 7 + hour) % 60);
        expect(formatLongDate(date)).toBe(format(date, DATE_FORMAT_LONG));
        expect(formatTime(date)).toBe(format(date, TIME_FORMAT));
        expect(formatDateInput(date)).toBe(format(date, DATE_INPUT_FORMAT));
        expect(formatDayMonthTime(date)).toBe(format(date, DAY_MONTH_TIME_FORMAT));
      }
    }
    for (const value of ["2026-06-05T00:00:00", "0999-03-04T09:00:00", 0, "2026-12-31T23:59:59Z"]) {
      expect(formatLongDate(value)).toBe(format(new Date(value), DATE_FORMAT_LONG));
      expect(formatDateInput(value)).toBe(format(new Date(value), DATE_INPUT_FORMAT));
    }
  });

  it("refuse an invalid date, as date-fns does", () => {
    expect(() => formatLongDate("not a date")).toThrow(RangeError);
    expect(() => formatTime(Number.NaN)).toThrow(RangeError);
    expect(() => formatDateInput(new Date(Number.NaN))).toThrow(RangeError);
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
