import { eq, sql } from "drizzle-orm";
import type { ComplianceGroup } from "../../../../shared/compliance";
import { meetingCategory } from "../../../../shared/meeting-model";
import type { ServiceDeps } from "../../app-deps";
import { preparedPerDatabase } from "../../db/prepared";
import { companies } from "../../db/schema";
import type { CompanyListCache } from "../../db/company-list-cache";
import { notFound } from "../../http/errors";
import { addMonths, lookbackMonths, minutesLookbackMonths } from "./compliance-periods";
import { complianceGroups, type ComplianceMeeting, type ComplianceRecord, type ComplianceResolution } from "./compliance-rules";

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
  /** Its title names an annual general meeting: kept whatever its date, so the last AGM is always known. */
  namedAnnual: boolean;
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
          'id', m.document_id, 'title', m.title, 'namedAnnual', (m.title ilike '%annual%' or m.title ilike '%agm%'), 'startsAt', m.starts_at, 'endsAt', m.ends_at, 'status', m.status,
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

/**
 * What the record holds beyond its periods at `now`, either side: see `companyCompliance`. More than a day, since a
 * period's start can step back almost a day at midnight (six months before 29–31 August are all 28 February, at the
 * time of day of the moment).
 */
const keptMarginMs = 2 * 24 * 60 * 60 * 1000;

/** A record loaded around a moment: each meeting says whether its title kept it whatever its date. */
type RecordAround = Omit<LoadedRecord, "meetings"> & { meetings: (RecordMeeting & { namedAnnual: boolean })[] };

/** The record as the rules read it at `now`. */
export async function loadComplianceRecord(deps: ServiceDeps<"db">, companyId: number, now: Date): Promise<LoadedRecord> {
  return withinPeriods(await loadRecordAround(deps, companyId, now, 0), now);
}

/** Cuts a record loaded around `now` (give or take `keptMarginMs`) to its periods at `now` exactly. */
function withinPeriods(record: RecordAround, now: Date): LoadedRecord {
  const lookback = addMonths(now, -lookbackMonths).getTime();
  const minutesSince = addMonths(now, -minutesLookbackMonths).getTime();
  return {
    ...record,
    meetings: record.meetings.filter((meeting) => meeting.startsAt.getTime() >= lookback || meeting.namedAnnual),
    minutesUploadedAt: record.minutesUploadedAt.filter((at) => at.getTime() >= minutesSince && at.getTime() <= now.getTime()),
    resolutions: record.resolutions.filter(
      (resolution) =>
        (resolution.status === "pending" && resolution.deadline.getTime() <= now.getTime()) ||
        (resolution.decidedAt !== null && resolution.decidedAt.getTime() >= lookback),
    ),
  };
}

/** The record with its periods widened by `margin` ms either side of `now`. */
async function loadRecordAround({ db }: ServiceDeps<"db">, companyId: number, now: Date, margin: number): Promise<RecordAround> {
  const [company] = await recordQuery(db).execute({
    companyId,
    now: new Date(now.getTime() + margin).toISOString(),
    lookback: new Date(addMonths(now, -lookbackMonths).getTime() - margin).toISOString(),
    minutesSince: new Date(addMonths(now, -minutesLookbackMonths).getTime() - margin).toISOString(),
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

/**
 * `GET /api/companies/:companyId/compliance`: the three groups, on the server's clock. Every dashboard visit asks for
 * it, so the record is kept with the company's lists until a paper, a meeting or a resolution of the company changes
 * (`lists`). It is loaded with two days either side of its periods and cut to them on each read: a kept record is
 * read again well within that, and the groups are always those of the clock's moment.
 */
export async function companyCompliance(deps: Deps, companyId: number, lists?: CompanyListCache): Promise<ComplianceGroup[]> {
  const now = deps.clock.now();
  const load = async () => {
    const record = await loadRecordAround(deps, companyId, now, keptMarginMs);
    return { value: record, ids: record.meetings.map((meeting) => meeting.id) };
  };
  const record = lists ? await lists.read(companyId, "compliance", now.getTime(), load) : (await load()).value;
  return complianceGroups(withinPeriods(record, now), now);
}
