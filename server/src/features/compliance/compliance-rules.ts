import {
  complianceProgress,
  complianceRuleIds,
  type ComplianceCategory,
  type ComplianceGroup,
  type ComplianceItem,
  type ComplianceStatus,
} from "../../../../shared/compliance";
import type { MeetingStatus } from "../../../../shared/meeting-model";
import {
  addDays,
  addMonths,
  agmIntervalMonths,
  agmYearMonths,
  dayMs,
  firstAgmMonths,
  lookbackMonths,
  minutesGraceDays,
  minutesLookbackMonths,
  noticeDays,
  quarterDeadline,
  quarterOf,
} from "./compliance-periods";

/**
 * The compliance rules as pure functions of plain rows and a moment: no database, no clock of their own. The periods
 * they count are those of `compliance-periods.ts`.
 */

/** A meeting as the rules see it; `scheduledAt` is when it was put in the calendar (its document's creation). */
export interface ComplianceMeeting {
  title: string;
  startsAt: Date;
  endsAt: Date;
  status: MeetingStatus;
  scheduledAt: Date;
}

/** A resolution as the rules see it; `quorumMet` is what its decision recorded (null: nothing recorded). */
export interface ComplianceResolution {
  status: "pending" | "approved" | "rejected";
  deadline: Date;
  decidedAt: Date | null;
  quorumMet: boolean | null;
}

export interface ComplianceRecord {
  companyCreatedAt: Date;
  meetings: readonly ComplianceMeeting[];
  /** When the newest Financial document was uploaded, if any. */
  latestFinancialAt: Date | null;
  /** How many Legal documents the company has. */
  legalDocuments: number;
  /** Upload times of documents whose name contains "minutes" (meeting documents aside). */
  minutesUploadedAt: readonly Date[];
  resolutions: readonly ComplianceResolution[];
}

// Descriptions are read by people: "December 18, 2026", in UTC like every date the rules compute.
const longDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });
const day = (date: Date) => longDate.format(date);
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** A meeting that counts: scheduled for real (not a draft) and not cancelled. */
const counts = (meeting: ComplianceMeeting) => meeting.status !== "draft" && meeting.status !== "cancelled";

/** A meeting is an Annual General Meeting when its title says so: "Annual General Meeting", or "AGM" as a word (any case). */
export const isAnnualGeneralMeeting = (title: string) => /annual\s+general\s+meeting|\bagm\b/i.test(title);

function item(
  id: string,
  category: ComplianceCategory,
  title: string,
  status: ComplianceStatus,
  description: string,
  dueDate?: Date,
): ComplianceItem {
  return { id, title, description, status, ...(dueDate ? { dueDate: dueDate.toISOString() } : {}), category };
}

// --- Meetings ---

/**
 * A board meeting in the current quarter: completed once one has started this quarter; upcoming while one is
 * scheduled for later this quarter; overdue from the first instant of the quarter's last 14 days with neither;
 * pending before that. Due: that instant (next quarter's once this quarter's is held).
 */
export function quarterlyBoardMeeting(meetings: readonly ComplianceMeeting[], now: Date): ComplianceItem {
  const { start, end } = quarterOf(now);
  const deadline = quarterDeadline(end);
  const make = (status: ComplianceStatus, description: string, due: Date) =>
    item(complianceRuleIds.quarterlyBoardMeeting, "meetings", "Quarterly Board Meeting", status, description, due);
  const active = meetings.filter(counts);
  const held = active
    .filter((meeting) => meeting.startsAt >= start && meeting.startsAt <= now)
    .sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0];
  if (held) return make("completed", `Held on ${day(held.startsAt)}: ${held.title}.`, quarterDeadline(quarterOf(end).end));
  const scheduled = active
    .filter((meeting) => meeting.startsAt > now && meeting.startsAt < end)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())[0];
  if (scheduled) return make("upcoming", `Scheduled for ${day(scheduled.startsAt)}: ${scheduled.title}.`, deadline);
  if (now >= deadline)
    return make("overdue", `No board meeting held or scheduled this quarter; one was due by ${day(deadline)}.`, deadline);
  return make("pending", `Hold or schedule a board meeting this quarter, by ${day(deadline)}.`, deadline);
}

/**
 * An Annual General Meeting (a meeting whose title names it) within 15 months of the last one held, or
 * within 18 months of the company's creation before the first. Overdue from the due date; completed while one
 * was held in the last 12 months; upcoming while one is scheduled by the due date; pending otherwise.
 */
export function annualGeneralMeeting(meetings: readonly ComplianceMeeting[], companyCreatedAt: Date, now: Date): ComplianceItem {
  const agms = meetings.filter((meeting) => counts(meeting) && isAnnualGeneralMeeting(meeting.title));
  const last = agms.filter((meeting) => meeting.startsAt <= now).sort((a, b) => b.startsAt.getTime() - a.startsAt.getTime())[0];
  const next = agms.filter((meeting) => meeting.startsAt > now).sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())[0];
  const due = last ? addMonths(last.startsAt, agmIntervalMonths) : addMonths(companyCreatedAt, firstAgmMonths);
  const make = (status: ComplianceStatus, description: string) =>
    item(complianceRuleIds.annualGeneralMeeting, "meetings", "Annual General Meeting", status, description, due);
  const since = last ? `the last one (${day(last.startsAt)})` : "the company's creation";
  if (now >= due) {
    const booked = next ? ` One is scheduled for ${day(next.startsAt)}.` : "";
    return make("overdue", `Was due by ${day(due)}, ${last ? agmIntervalMonths : firstAgmMonths} months after ${since}.${booked}`);
  }
  if (last && addMonths(last.startsAt, agmYearMonths) > now)
    return make("completed", `Held on ${day(last.startsAt)}; the next is due by ${day(due)}.`);
  if (next && next.startsAt <= due) return make("upcoming", `Scheduled for ${day(next.startsAt)}; due by ${day(due)}.`);
  return make("pending", `Due by ${day(due)}, ${last ? agmIntervalMonths : firstAgmMonths} months after ${since}.`);
}

/**
 * Notice: every meeting starting in the last 12 months or later was scheduled at least 7 days before it
 * starts. Overdue when one was not; pending with no meeting to look at.
 */
export function meetingNotice(meetings: readonly ComplianceMeeting[], now: Date): ComplianceItem {
  const since = addMonths(now, -lookbackMonths);
  const considered = meetings.filter((meeting) => counts(meeting) && meeting.startsAt >= since);
  const short = considered.filter((meeting) => meeting.startsAt.getTime() - meeting.scheduledAt.getTime() < noticeDays * dayMs);
  const make = (status: ComplianceStatus, description: string) =>
    item(complianceRuleIds.meetingNotice, "meetings", "Meeting Notice", status, description);
  if (considered.length === 0)
    return make(
      "pending",
      `No meeting in the last ${lookbackMonths} months to check: schedule meetings at least ${noticeDays} days ahead.`,
    );
  if (short.length > 0) {
    const names = short.map((meeting) => `${meeting.title} (${day(meeting.startsAt)})`).join(", ");
    return make("overdue", `${plural(short.length, "meeting")} scheduled less than ${noticeDays} days ahead: ${names}.`);
  }
  return make(
    "completed",
    `All ${plural(considered.length, "meeting")} of the last ${lookbackMonths} months were scheduled at least ${noticeDays} days ahead.`,
  );
}

// --- Documents ---

/**
 * Financial statements: a Financial document uploaded in the last 12 months. Due 12 months after the newest
 * one (or after the company's creation before the first): completed before that, overdue from it; pending
 * for a company that has none yet and is not past the first due date.
 */
export function financialStatements(latestFinancialAt: Date | null, companyCreatedAt: Date, now: Date): ComplianceItem {
  const due = addMonths(latestFinancialAt ?? companyCreatedAt, lookbackMonths);
  const make = (status: ComplianceStatus, description: string) =>
    item(complianceRuleIds.financialStatements, "documents", "Financial Statements", status, description, due);
  if (now >= due)
    return make(
      "overdue",
      latestFinancialAt
        ? `The last Financial document was uploaded on ${day(latestFinancialAt)}; new statements were due by ${day(due)}.`
        : `Upload financial statements (a Financial document); they were due by ${day(due)}.`,
    );
  if (latestFinancialAt) return make("completed", `Uploaded on ${day(latestFinancialAt)}; the next are due by ${day(due)}.`);
  return make("pending", `Upload financial statements (a Financial document) by ${day(due)}.`);
}

/** A Legal document (articles, bylaws) on file: completed with at least one, pending otherwise. */
export function legalDocuments(count: number): ComplianceItem {
  const make = (status: ComplianceStatus, description: string) =>
    item(complianceRuleIds.legalDocuments, "documents", "Legal Documents", status, description);
  return count > 0
    ? make("completed", `${plural(count, "Legal document")} on file.`)
    : make("pending", "Upload the company's articles or bylaws as a Legal document.");
}

/**
 * Minutes: every meeting that started in the last 6 months and has ended needs its own document whose name
 * contains "minutes" (any case), uploaded after the meeting ended; one document answers for one meeting.
 * Missing minutes are pending for 30 days after their meeting and overdue after that; with no such meeting
 * the rule is pending (nothing on record yet).
 */
export function meetingMinutes(meetings: readonly ComplianceMeeting[], minutesUploadedAt: readonly Date[], now: Date): ComplianceItem {
  const since = addMonths(now, -minutesLookbackMonths);
  const held = meetings
    .filter((meeting) => counts(meeting) && meeting.startsAt >= since && meeting.endsAt <= now)
    .sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime());
  const uploads = [...minutesUploadedAt].sort((a, b) => a.getTime() - b.getTime());
  // Meetings by end time, each taking the earliest unused upload after its end: as many meetings get minutes as can.
  const missing: ComplianceMeeting[] = [];
  let next = 0;
  for (const meeting of held) {
    while (next < uploads.length && uploads[next]! < meeting.endsAt) next += 1;
    if (next < uploads.length) next += 1;
    else missing.push(meeting);
  }
  const make = (status: ComplianceStatus, description: string, due?: Date) =>
    item(complianceRuleIds.meetingMinutes, "documents", "Meeting Minutes", status, description, due);
  if (held.length === 0)
    return make(
      "pending",
      `No meeting held in the last ${minutesLookbackMonths} months: upload a document named "… minutes …" after each one.`,
    );
  if (missing.length === 0)
    return make("completed", `Minutes on file for all ${plural(held.length, "meeting")} of the last ${minutesLookbackMonths} months.`);
  const due = addDays(missing[0]!.endsAt, minutesGraceDays);
  const names = missing.map((meeting) => `${meeting.title} (${day(meeting.startsAt)})`).join(", ");
  return make(now >= due ? "overdue" : "pending", `Minutes missing for ${plural(missing.length, "meeting")}: ${names}.`, due);
}

// --- Resolutions ---

/** No resolution still pending past its deadline (the Expired tab is empty): completed, else overdue. */
export function noExpiredResolutions(resolutions: readonly ComplianceResolution[], now: Date): ComplianceItem {
  const expired = resolutions.filter((resolution) => resolution.status === "pending" && resolution.deadline <= now);
  const make = (status: ComplianceStatus, description: string) =>
    item(complianceRuleIds.noExpiredResolutions, "resolutions", "No Expired Resolutions", status, description);
  return expired.length > 0
    ? make("overdue", `${plural(expired.length, "resolution")} still pending past the deadline.`)
    : make("completed", "No resolution is pending past its deadline.");
}

/**
 * Every resolution decided in the last 12 months was decided with quorum, as its decision recorded it:
 * completed; overdue when one was not (or recorded none); pending when none was decided in that time.
 */
export function decidedWithQuorum(resolutions: readonly ComplianceResolution[], now: Date): ComplianceItem {
  const since = addMonths(now, -lookbackMonths);
  const decided = resolutions.filter(
    (resolution) =>
      resolution.status !== "pending" && resolution.decidedAt !== null && resolution.decidedAt >= since && resolution.decidedAt <= now,
  );
  const without = decided.filter((resolution) => resolution.quorumMet !== true);
  const make = (status: ComplianceStatus, description: string) =>
    item(complianceRuleIds.decidedWithQuorum, "resolutions", "Decided with Quorum", status, description);
  if (decided.length === 0) return make("pending", `No resolution decided in the last ${lookbackMonths} months.`);
  if (without.length > 0)
    return make(
      "overdue",
      `${without.length} of ${plural(decided.length, "resolution")} decided in the last ${lookbackMonths} months lacked quorum.`,
    );
  return make("completed", `All ${plural(decided.length, "resolution")} decided in the last ${lookbackMonths} months had quorum.`);
}

// --- The three groups ---

function group(name: ComplianceGroup["name"], items: ComplianceItem[]): ComplianceGroup {
  return { name, progress: complianceProgress(items), items };
}

/** Meetings, Documents, Resolutions, in that order, each with its rules' verdicts and progress. */
export function complianceGroups(record: ComplianceRecord, now: Date): ComplianceGroup[] {
  return [
    group("Meetings", [
      quarterlyBoardMeeting(record.meetings, now),
      annualGeneralMeeting(record.meetings, record.companyCreatedAt, now),
      meetingNotice(record.meetings, now),
    ]),
    group("Documents", [
      financialStatements(record.latestFinancialAt, record.companyCreatedAt, now),
      legalDocuments(record.legalDocuments),
      meetingMinutes(record.meetings, record.minutesUploadedAt, now),
    ]),
    group("Resolutions", [noExpiredResolutions(record.resolutions, now), decidedWithQuorum(record.resolutions, now)]),
  ];
}
