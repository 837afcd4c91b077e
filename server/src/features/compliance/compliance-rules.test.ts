import { complianceRuleIds } from "../../../../shared/compliance";
import {
  addMonths,
  annualGeneralMeeting,
  complianceGroups,
  decidedWithQuorum,
  financialStatements,
  isAnnualGeneralMeeting,
  legalDocuments,
  meetingMinutes,
  meetingNotice,
  noExpiredResolutions,
  quarterOf,
  quarterlyBoardMeeting,
  type ComplianceMeeting,
  type ComplianceResolution,
} from "./compliance-rules";

const at = (iso: string) => new Date(iso);
const hours = (count: number) => count * 60 * 60 * 1000;
const days = (count: number) => count * 24 * hours(1);

/** A meeting of two hours starting at `start`, scheduled `noticeDays` before it. */
function meeting(start: string, fields: Partial<ComplianceMeeting> & { noticeDays?: number } = {}): ComplianceMeeting {
  const startsAt = at(start);
  const { noticeDays = 30, ...rest } = fields;
  return {
    title: "Board Meeting",
    startsAt,
    endsAt: new Date(startsAt.getTime() + hours(2)),
    status: "confirmed",
    scheduledAt: new Date(startsAt.getTime() - days(noticeDays)),
    ...rest,
  };
}

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

describe("financial statements", () => {
  const created = at("2026-01-15T00:00:00Z");

  it("is due 12 months after the company's creation before the first", () => {
    expect(financialStatements(null, created, at("2027-01-14T23:59:59Z"))).toMatchObject({
      id: complianceRuleIds.financialStatements,
      status: "pending",
      dueDate: "2027-01-15T00:00:00.000Z",
    });
    expect(financialStatements(null, created, at("2027-01-15T00:00:00Z")).status).toBe("overdue");
  });

  it("is completed for 12 months after the newest upload", () => {
    const uploaded = at("2028-02-29T09:00:00Z");
    expect(financialStatements(uploaded, created, at("2029-02-28T08:59:59Z"))).toMatchObject({
      status: "completed",
      dueDate: "2029-02-28T09:00:00.000Z",
    });
    expect(financialStatements(uploaded, created, at("2029-02-28T09:00:00Z")).status).toBe("overdue");
  });
});

describe("legal documents", () => {
  it("needs one on file", () => {
    expect(legalDocuments(0)).toMatchObject({ id: complianceRuleIds.legalDocuments, status: "pending", category: "documents" });
    expect(legalDocuments(0).dueDate).toBeUndefined();
    expect(legalDocuments(2).status).toBe("completed");
  });
});

describe("meeting minutes", () => {
  const now = at("2027-06-01T00:00:00Z");
  const held = meeting("2027-05-01T10:00:00Z"); // ends 12:00

  it("is pending with no meeting held in the last 6 months", () => {
    expect(meetingMinutes([], [], now)).toMatchObject({ id: complianceRuleIds.meetingMinutes, status: "pending" });
    expect(meetingMinutes([meeting("2026-11-30T23:59:59Z")], [], now).status).toBe("pending");
    expect(meetingMinutes([meeting("2027-06-01T00:00:00Z")], [], now).status).toBe("pending");
  });

  it("needs an upload after the meeting ended", () => {
    expect(meetingMinutes([held], [at("2027-05-01T11:59:59Z")], at("2027-05-15T00:00:00Z")).status).toBe("pending");
    expect(meetingMinutes([held], [at("2027-05-01T12:00:00Z")], now).status).toBe("completed");
  });

  it("is overdue 30 days after the meeting ended without minutes", () => {
    expect(meetingMinutes([held], [], at("2027-05-31T11:59:59Z"))).toMatchObject({
      status: "pending",
      dueDate: "2027-05-31T12:00:00.000Z",
    });
    expect(meetingMinutes([held], [], at("2027-05-31T12:00:00Z")).status).toBe("overdue");
  });

  it("needs one upload per meeting", () => {
    const second = meeting("2027-05-10T10:00:00Z");
    const one = meetingMinutes([held, second], [at("2027-05-20T00:00:00Z")], now);
    expect(one).toMatchObject({ status: "pending", dueDate: "2027-06-09T12:00:00.000Z" });
    expect(one.description).toContain("1 meeting:");
    expect(meetingMinutes([second, held], [at("2027-05-20T00:00:00Z"), at("2027-05-02T00:00:00Z")], now).status).toBe("completed");
    // An upload between the two meetings serves the first only.
    expect(meetingMinutes([held, second], [at("2027-05-02T00:00:00Z"), at("2027-05-03T00:00:00Z")], now).status).toBe("pending");
  });
});

describe("resolutions", () => {
  const now = at("2027-06-01T00:00:00Z");
  const pending = (deadline: string): ComplianceResolution => ({
    status: "pending",
    deadline: at(deadline),
    decidedAt: null,
    quorumMet: null,
  });
  const decided = (decidedAt: string, quorumMet: boolean | null): ComplianceResolution => ({
    status: "approved",
    deadline: at(decidedAt),
    decidedAt: at(decidedAt),
    quorumMet,
  });

  it("none pending past the deadline: overdue from the deadline itself", () => {
    expect(noExpiredResolutions([], now)).toMatchObject({ id: complianceRuleIds.noExpiredResolutions, status: "completed" });
    expect(noExpiredResolutions([pending("2027-06-01T00:00:01Z")], now).status).toBe("completed");
    expect(noExpiredResolutions([pending("2027-06-01T00:00:00Z")], now).status).toBe("overdue");
  });

  it("every one decided in the last 12 months had quorum", () => {
    expect(decidedWithQuorum([], now)).toMatchObject({ id: complianceRuleIds.decidedWithQuorum, status: "pending" });
    expect(decidedWithQuorum([decided("2027-01-01T00:00:00Z", true)], now).status).toBe("completed");
    expect(decidedWithQuorum([decided("2027-01-01T00:00:00Z", true), decided("2027-02-01T00:00:00Z", false)], now).status).toBe("overdue");
    expect(decidedWithQuorum([decided("2027-01-01T00:00:00Z", null)], now).status).toBe("overdue");
    expect(decidedWithQuorum([decided("2026-06-01T00:00:00Z", false)], now).status).toBe("overdue");
    expect(decidedWithQuorum([decided("2026-05-31T23:59:59Z", false)], now).status).toBe("pending");
    expect(decidedWithQuorum([pending("2027-07-01T00:00:00Z")], now).status).toBe("pending");
  });
});

describe("groups", () => {
  it("answers Meetings, Documents, Resolutions with progress = completed ÷ items", () => {
    const groups = complianceGroups(
      {
        companyCreatedAt: at("2027-01-01T00:00:00Z"),
        meetings: [],
        latestFinancialAt: null,
        legalDocuments: 1,
        minutesUploadedAt: [],
        resolutions: [],
      },
      at("2027-02-01T00:00:00Z"),
    );
    expect(groups.map((group) => [group.name, group.progress, group.items.length])).toEqual([
      ["Meetings", 0, 3],
      ["Documents", 33, 3],
      ["Resolutions", 50, 2],
    ]);
    expect(groups.flatMap((group) => group.items.map((item) => item.id)).sort()).toEqual(Object.values(complianceRuleIds).sort());
  });
});
