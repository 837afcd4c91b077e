import { complianceRuleIds } from "../../../../shared/compliance";
import {
  complianceGroups,
  decidedWithQuorum,
  financialStatements,
  legalDocuments,
  meetingMinutes,
  noExpiredResolutions,
  type ComplianceResolution,
} from "./compliance-rules";
import { at, meeting } from "../../testing/compliance-rule-fixtures";

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
