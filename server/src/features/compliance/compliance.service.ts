import { eq, sql } from "drizzle-orm";
import type { ComplianceGroup } from "../../../../shared/compliance";
import { meetingCategory } from "../../../../shared/meeting-model";
import type { ServiceDeps } from "../../app-deps";
import { preparedPerDatabase } from "../../db/prepared";
import { companies } from "../../db/schema";
import { notFound } from "../../http/errors";
import {
  addMonths,
  complianceGroups,
  lookbackMonths,
  minutesLookbackMonths,
  type ComplianceMeeting,
  type ComplianceRecord,
  type ComplianceResolution,
} from "./compliance-rules";

type Deps = ServiceDeps<"db" | "clock">;

/** A meeting as loaded for the rules, with what the calendar also needs. */
export interface RecordMeeting extends ComplianceMeeting {
  id: number;
  location: string;
  agenda: string | null;
  /** The calendar event's SEQUENCE. */
  sequence: number;
}

export interface LoadedRecord extends ComplianceRecord {
  meetings: RecordMeeting[];
}

/** A meeting, a minutes upload and a resolution as the record query's JSON carries them (times as ISO text). */
interface MeetingJson {
  id: number;
  title: string;
  startsAt: string;
  endsAt: string;
  status: RecordMeeting["status"];
  location: string;
  agenda: string | null;
  sequence: number;
  scheduledAt: string;
}
interface ResolutionJson {
  status: ComplianceResolution["status"];
  deadline: string;
  decidedAt: string | null;
  quorumMet: boolean | null;
}

/**
 * Everything the rules read about one company, in one statement (the dashboard asks for it on every visit, so it
 * is a named prepared statement): the company with its newest Financial upload and count of Legal documents; its
 * meetings that start from 12 months ago on (plus any older one whose title may name an AGM, so the last AGM is
 * always known), cancelled ones included for the calendar (the rules count none of them); its "minutes" uploads
 * of the last 6 months; and its resolutions that are pending past their deadline or were decided in the last 12
 * months. The three lists come back as JSON arrays; their periods are
 * computed here (calendar months, clamped) and passed in.
 * Column names in the subqueries are written out in full: in a one-table select drizzle leaves them unqualified,
 * which a subquery would misread.
 */
const recordQuery = preparedPerDatabase((db) =>
  db
    .select({
      createdAt: companies.createdAt,
      latestFinancialMs: sql<
        number | null
      >`(select extract(epoch from max(d.created_at)) * 1000 from documents d where d.company_id = companies.id and d.category = 'Financial')`.mapWith(
        (value) => (value == null ? null : Number(value)),
      ),
      legalDocuments: sql<number>`(select count(*) from documents d where d.company_id = companies.id and d.category = 'Legal')`.mapWith(
        Number,
      ),
      meetings: sql<MeetingJson[]>`(
        select coalesce(json_agg(json_build_object(
          'id', m.document_id, 'title', m.title, 'startsAt', m.starts_at, 'endsAt', m.ends_at, 'status', m.status,
          'location', m.location, 'agenda', m.agenda, 'sequence', m.sequence, 'scheduledAt', d.created_at)), '[]'::json)
        from meetings m join documents d on d.id = m.document_id
        where m.company_id = companies.id and m.status <> 'draft'
          and (m.starts_at >= ${sql.placeholder("lookback")}::timestamptz or m.title ilike '%annual%' or m.title ilike '%agm%'))`,
      minutesUploadedAt: sql<string[]>`(
        select coalesce(json_agg(d.created_at), '[]'::json) from documents d
        where d.company_id = companies.id and d.category <> ${meetingCategory} and d.name ilike '%minutes%'
          and d.created_at >= ${sql.placeholder("minutesSince")}::timestamptz and d.created_at <= ${sql.placeholder("now")}::timestamptz)`,
      resolutions: sql<ResolutionJson[]>`(
        select coalesce(json_agg(json_build_object(
          'status', r.status, 'deadline', r.deadline, 'decidedAt', r.decided_at,
          'quorumMet', (r.certificate -> 'quorum' ->> 'met')::boolean)), '[]'::json)
        from resolutions r
        where r.company_id = companies.id
          and ((r.status = 'pending' and r.deadline <= ${sql.placeholder("now")}::timestamptz) or r.decided_at >= ${sql.placeholder("lookback")}::timestamptz))`,
    })
    .from(companies)
    .where(eq(companies.id, sql.placeholder("companyId")))
    .prepare("quorum_compliance_record"),
);

export async function loadComplianceRecord({ db }: ServiceDeps<"db">, companyId: number, now: Date): Promise<LoadedRecord> {
  const [company] = await recordQuery(db).execute({
    companyId,
    now: now.toISOString(),
    lookback: addMonths(now, -lookbackMonths).toISOString(),
    minutesSince: addMonths(now, -minutesLookbackMonths).toISOString(),
  });
  if (!company) throw notFound("Company not found");
  return {
    companyCreatedAt: company.createdAt,
    latestFinancialAt: company.latestFinancialMs == null ? null : new Date(company.latestFinancialMs),
    legalDocuments: company.legalDocuments,
    meetings: company.meetings.map((meeting) => ({
      ...meeting,
      startsAt: new Date(meeting.startsAt),
      endsAt: new Date(meeting.endsAt),
      scheduledAt: new Date(meeting.scheduledAt),
    })),
    minutesUploadedAt: company.minutesUploadedAt.map((at) => new Date(at)),
    resolutions: company.resolutions.map((resolution) => ({
      status: resolution.status,
      deadline: new Date(resolution.deadline),
      decidedAt: resolution.decidedAt == null ? null : new Date(resolution.decidedAt),
      quorumMet: resolution.quorumMet,
    })),
  };
}

/** `GET /api/companies/:companyId/compliance`: the three groups, on the server's clock. */
export async function companyCompliance(deps: Deps, companyId: number): Promise<ComplianceGroup[]> {
  const now = deps.clock.now();
  return complianceGroups(await loadComplianceRecord(deps, companyId, now), now);
}
