import { complianceRuleIds } from "../../../../shared/compliance";
import { addMonths, quarterOf } from "./compliance-periods";
import { annualGeneralMeeting, isAnnualGeneralMeeting, meetingNotice, quarterlyBoardMeeting } from "./compliance-rules";
import { at, meeting } from "../../testing/compliance-rule-fixtures";

describe("dates", () => {
  it("adds calendar months in UTC, clamping to the month's last day", () => {
    expect(addMonths(at("2024-02-29T10:00:00Z"), 15).toISOString()).toBe("2025-05-29T10:00:00.000Z");
    expect(addMonths(at("2024-02-29T10:00:00Z"), 12).toISOString()).toBe("2025-02-28T10:00:00.000Z");
    expect(addMonths(at("2024-02-29T10:00:00Z"), 48).toISOString()).toBe("2028-02-29T10:00:00.000Z");
    expect(addMonths(at("2026-08-31T00:00:00Z"), 18).toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(addMonths(at("2025-08-31T00:00:00Z"), 18).toISOString()).toBe("2027-02-28T00:00:00.000Z");
    expect(addMonths(at("2022-12-31T23:59:59Z"), 15).toISOString()).toBe("2024-03-31T23:59:59.000Z");
    expect(addMonths(at("2027-03-31T12:00:00Z"), -12).toISOString()).toBe("2026-03-31T12:00:00.000Z");
    expect(addMonths(at("2028-02-29T12:00:00Z"), -12).toISOString()).toBe("2027-02-28T12:00:00.000Z");
  });

  it("finds the calendar quarter", () => {
    expect(quarterOf(at("2026-01-01T00:00:00Z"))).toEqual({ start: at("2026-01-01T00:00:00Z"), end: at("2026-04-01T00:00:00Z") });
    expect(quarterOf(at("2026-03-31T23:59:59.999Z")).end).toEqual(at("2026-04-01T00:00:00Z"));
    expect(quarterOf(at("2026-12-31T23:59:59.999Z"))).toEqual({ start: at("2026-10-01T00:00:00Z"), end: at("2027-01-01T00:00:00Z") });
  });

  it("recognises an AGM by its title", () => {
    expect(isAnnualGeneralMeeting("Annual General Meeting 2027")).toBe(true);
    expect(isAnnualGeneralMeeting("annual  general meeting")).toBe(true);
    expect(isAnnualGeneralMeeting("2027 AGM")).toBe(true);
    expect(isAnnualGeneralMeeting("agm: accounts")).toBe(true);
    expect(isAnnualGeneralMeeting("Magma review")).toBe(false);
    expect(isAnnualGeneralMeeting("AGMs planning")).toBe(false);
    expect(isAnnualGeneralMeeting("Annual review")).toBe(false);
  });
});

describe("quarterly board meeting", () => {
  // Q1 2027: its last 14 days begin on 18 March.
  const deadline = "2027-03-18T00:00:00.000Z";

  it("is pending the day before the deadline and overdue from it, with the deadline as due date", () => {
    const before = quarterlyBoardMeeting([], at("2027-03-17T23:59:59.999Z"));
    expect(before).toMatchObject({
      id: complianceRuleIds.quarterlyBoardMeeting,
      status: "pending",
      dueDate: deadline,
      category: "meetings",
    });
    expect(quarterlyBoardMeeting([], at(deadline))).toMatchObject({ status: "overdue", dueDate: deadline });
    expect(quarterlyBoardMeeting([], at("2027-03-31T23:59:59.999Z")).status).toBe("overdue");
  });

  it("starts afresh with each quarter", () => {
    const old = [meeting("2027-02-01T10:00:00Z")];
    expect(quarterlyBoardMeeting(old, at("2027-03-31T23:59:59.999Z")).status).toBe("completed");
    expect(quarterlyBoardMeeting(old, at("2027-04-01T00:00:00Z"))).toMatchObject({
      status: "pending",
      dueDate: "2027-06-17T00:00:00.000Z",
    });
  });

  it("is upcoming while one is scheduled later this quarter, even in the last 14 days", () => {
    const scheduled = [meeting("2027-03-30T10:00:00Z")];
    expect(quarterlyBoardMeeting(scheduled, at("2027-03-20T00:00:00Z"))).toMatchObject({ status: "upcoming", dueDate: deadline });
    // Next quarter's meeting does not count for this one.
    expect(quarterlyBoardMeeting([meeting("2027-04-01T00:00:00Z")], at("2027-03-20T00:00:00Z")).status).toBe("overdue");
  });

  it("is completed once a meeting of this quarter has started, with next quarter's due date", () => {
    const held = [meeting("2027-03-20T10:00:00Z")];
    expect(quarterlyBoardMeeting(held, at("2027-03-20T09:59:59Z")).status).toBe("upcoming");
    expect(quarterlyBoardMeeting(held, at("2027-03-20T10:00:00Z"))).toMatchObject({
      status: "completed",
      dueDate: "2027-06-17T00:00:00.000Z",
    });
    // Q4's next due date is in the next year.
    expect(quarterlyBoardMeeting([meeting("2027-11-01T10:00:00Z")], at("2027-12-01T00:00:00Z")).dueDate).toBe("2028-03-18T00:00:00.000Z");
  });

  it("ignores cancelled meetings and drafts", () => {
    const cancelled = [meeting("2027-03-01T10:00:00Z", { status: "cancelled" }), meeting("2027-03-02T10:00:00Z", { status: "draft" })];
    expect(quarterlyBoardMeeting(cancelled, at("2027-03-10T00:00:00Z")).status).toBe("pending");
  });

  it("counts a leap year's Q1 deadline from 1 April", () => {
    expect(quarterlyBoardMeeting([], at("2028-02-29T12:00:00Z"))).toMatchObject({ status: "pending", dueDate: "2028-03-18T00:00:00.000Z" });
  });
});

describe("annual general meeting", () => {
  const created = at("2026-01-15T00:00:00Z");

  it("is due 18 months after the company's creation before the first", () => {
    const due = "2027-07-15T00:00:00.000Z";
    expect(annualGeneralMeeting([], created, at("2027-07-14T23:59:59.999Z"))).toMatchObject({
      id: complianceRuleIds.annualGeneralMeeting,
      status: "pending",
      dueDate: due,
    });
    expect(annualGeneralMeeting([], created, at(due))).toMatchObject({ status: "overdue", dueDate: due });
  });

  it("is due 15 months after the last one, completed for 12 months after it", () => {
    const last = [meeting("2027-03-01T10:00:00Z", { title: "Annual General Meeting 2027" })];
    expect(annualGeneralMeeting(last, created, at("2027-03-01T10:00:00Z"))).toMatchObject({
      status: "completed",
      dueDate: "2028-06-01T10:00:00.000Z",
    });
    expect(annualGeneralMeeting(last, created, at("2028-03-01T09:59:59Z")).status).toBe("completed");
    expect(annualGeneralMeeting(last, created, at("2028-03-01T10:00:00Z")).status).toBe("pending");
    expect(annualGeneralMeeting(last, created, at("2028-06-01T09:59:59Z")).status).toBe("pending");
    expect(annualGeneralMeeting(last, created, at("2028-06-01T10:00:00Z")).status).toBe("overdue");
  });

  it("counts 15 months from Feb 29 to May 29, and 12 months to Feb 28", () => {
    const leap = [meeting("2028-02-29T10:00:00Z", { title: "AGM" })];
    expect(annualGeneralMeeting(leap, created, at("2028-03-01T00:00:00Z")).dueDate).toBe("2029-05-29T10:00:00.000Z");
    expect(annualGeneralMeeting(leap, created, at("2029-02-28T09:59:59Z")).status).toBe("completed");
    expect(annualGeneralMeeting(leap, created, at("2029-02-28T10:00:00Z")).status).toBe("pending");
    expect(annualGeneralMeeting(leap, created, at("2029-05-29T10:00:00Z")).status).toBe("overdue");
  });

  it("is upcoming while one is scheduled by the due date, and overdue past it even so", () => {
    const scheduled = [meeting("2027-07-01T10:00:00Z", { title: "AGM 2027" })];
    expect(annualGeneralMeeting(scheduled, created, at("2027-06-01T00:00:00Z")).status).toBe("upcoming");
    const late = [meeting("2027-08-01T10:00:00Z", { title: "AGM 2027" })];
    expect(annualGeneralMeeting(late, created, at("2027-06-01T00:00:00Z")).status).toBe("pending");
    expect(annualGeneralMeeting(late, created, at("2027-07-20T00:00:00Z")).status).toBe("overdue");
  });

  it("only counts meetings whose title names an AGM", () => {
    expect(
      annualGeneralMeeting([meeting("2027-03-01T10:00:00Z", { title: "Board Meeting" })], created, at("2027-08-01T00:00:00Z")).status,
    ).toBe("overdue");
    expect(
      annualGeneralMeeting([meeting("2027-03-01T10:00:00Z", { title: "AGM", status: "cancelled" })], created, at("2027-08-01T00:00:00Z"))
        .status,
    ).toBe("overdue");
  });
});

describe("meeting notice", () => {
  const now = at("2027-06-01T00:00:00Z");

  it("is pending with no meeting to look at", () => {
    expect(meetingNotice([], now)).toMatchObject({ id: complianceRuleIds.meetingNotice, status: "pending" });
    expect(meetingNotice([meeting("2026-05-31T23:00:00Z", { noticeDays: 1 })], now).status).toBe("pending");
  });

  it("needs 7 whole days between scheduling and start", () => {
    expect(meetingNotice([meeting("2027-05-01T10:00:00Z", { noticeDays: 7 })], now).status).toBe("completed");
    const short = meeting("2027-05-01T10:00:00Z", { noticeDays: 7 });
    short.scheduledAt = new Date(short.scheduledAt.getTime() + 1);
    expect(meetingNotice([short], now).status).toBe("overdue");
  });

  it("looks at the last 12 months, a meeting exactly 12 months ago included, and at scheduled ones", () => {
    expect(meetingNotice([meeting("2026-06-01T00:00:00Z", { noticeDays: 2 })], now).status).toBe("overdue");
    expect(meetingNotice([meeting("2026-05-31T23:59:59Z", { noticeDays: 2 })], now).status).toBe("pending");
    expect(meetingNotice([meeting("2027-06-03T10:00:00Z", { noticeDays: 3 })], now).status).toBe("overdue");
  });
});
