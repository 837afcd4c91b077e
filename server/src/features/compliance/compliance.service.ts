import { and, eq, gte, ilike, lte, ne, notInArray, or, sql } from "drizzle-orm";
import type { ComplianceGroup } from "../../../../shared/compliance";
import { meetingCategory } from "../../../../shared/meetings";
import type { ServiceDeps } from "../../app-deps";
import { companies, documents, meetings, resolutions } from "../../db/schema";
import { notFound } from "../../http/errors";
import { addMonths, complianceGroups, lookbackMonths, minutesLookbackMonths, type ComplianceMeeting, type ComplianceRecord } from "./compliance-rules";

type Deps = ServiceDeps<"db" | "clock">;

/** A meeting as loaded for the rules, with what the calendar also needs. */
export interface RecordMeeting extends ComplianceMeeting {
  id: number;
  location: string;
  agenda: string | null;
}

export interface LoadedRecord extends ComplianceRecord {
  meetings: RecordMeeting[];
}

/**
 * Everything the rules read about one company, in four queries whatever its size: the company with its
 * newest Financial upload and count of Legal documents; its meetings that start from 12 months ago on
 * (plus any older one whose title may name an AGM, so the last AGM is always known); its "minutes" uploads
 * of the last 6 months; and its resolutions that are pending past their deadline or were decided in the
 * last 12 months.
 */
export async function loadComplianceRecord({ db }: ServiceDeps<"db">, companyId: number, now: Date): Promise<LoadedRecord> {
  const lookback = addMonths(now, -lookbackMonths);
  const minutesSince = addMonths(now, -minutesLookbackMonths);
  const [companyRows, meetingRows, minutesRows, resolutionRows] = await Promise.all([
    db
      .select({
        createdAt: companies.createdAt,
        // Written out in full: in a one-table select drizzle leaves column names unqualified, which a subquery would misread.
        latestFinancialMs: sql<number | null>`(select extract(epoch from max(d.created_at)) * 1000 from documents d where d.company_id = companies.id and d.category = 'Financial')`.mapWith((value) => (value == null ? null : Number(value))),
        legalDocuments: sql<number>`(select count(*) from documents d where d.company_id = companies.id and d.category = 'Legal')`.mapWith(Number),
      })
      .from(companies)
      .where(eq(companies.id, companyId)),
    db
      .select({
        id: meetings.documentId,
        title: meetings.title,
        startsAt: meetings.startsAt,
        endsAt: meetings.endsAt,
        status: meetings.status,
        location: meetings.location,
        agenda: meetings.agenda,
        scheduledAt: documents.createdAt,
      })
      .from(meetings)
      .innerJoin(documents, eq(documents.id, meetings.documentId))
      .where(
        and(
          eq(meetings.companyId, companyId),
          notInArray(meetings.status, ["draft", "cancelled"]),
          or(gte(meetings.startsAt, lookback), ilike(meetings.title, "%annual%"), ilike(meetings.title, "%agm%")),
        ),
      ),
    db
      .select({ createdAt: documents.createdAt })
      .from(documents)
      .where(and(eq(documents.companyId, companyId), ne(documents.category, meetingCategory), ilike(documents.name, "%minutes%"), gte(documents.createdAt, minutesSince), lte(documents.createdAt, now))),
    db
      .select({
        status: resolutions.status,
        deadline: resolutions.deadline,
        decidedAt: resolutions.decidedAt,
        quorumMet: sql<boolean | null>`(${resolutions.certificate} -> 'quorum' ->> 'met')::boolean`,
      })
      .from(resolutions)
      .where(
        and(
          eq(resolutions.companyId, companyId),
          or(and(eq(resolutions.status, "pending"), lte(resolutions.deadline, now)), gte(resolutions.decidedAt, lookback)),
        ),
      ),
  ]);
  const [company] = companyRows;
  if (!company) throw notFound("Company not found");
  return {
    companyCreatedAt: company.createdAt,
    latestFinancialAt: company.latestFinancialMs == null ? null : new Date(company.latestFinancialMs),
    legalDocuments: company.legalDocuments,
    meetings: meetingRows,
    minutesUploadedAt: minutesRows.map((row) => row.createdAt),
    resolutions: resolutionRows.map((row) => ({ ...row, quorumMet: row.quorumMet == null ? null : row.quorumMet === true || String(row.quorumMet) === "true" })),
  };
}

/** `GET /api/companies/:companyId/compliance`: the three groups, on the server's clock. */
export async function companyCompliance(deps: Deps, companyId: number): Promise<ComplianceGroup[]> {
  const now = deps.clock.now();
  return complianceGroups(await loadComplianceRecord(deps, companyId, now), now);
}
