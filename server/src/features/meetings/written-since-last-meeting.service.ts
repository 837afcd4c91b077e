// The written resolutions decided between a company's meetings: what the next meeting's agenda draft and the minutes
// of a meeting take note of.
import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { resolutions } from "../../db/schema";
import type { WrittenSinceLastMeeting } from "./agenda-written";

/** When a decided written resolution took effect (its certificate's time; the decision's for one without it). */
const writtenEffectiveAt =
  sql<Date>`coalesce((${resolutions.writtenCertificate} ->> 'effectiveAt')::timestamptz, ${resolutions.decidedAt})`.mapWith(
    (value: string | Date) => new Date(value),
  );

/**
 * The company's written resolutions passed or referred to a meeting after the start of its last meeting before this
 * one (a draft or cancelled meeting is none) and by this one's start, in the order they took effect (one query).
 */
export async function writtenSinceLastMeeting(
  db: Queryable,
  meeting: { id: number; companyId: number; startsAt: Date },
): Promise<WrittenSinceLastMeeting> {
  const previousStart = sql`(select max(m.starts_at) from meetings m where m.company_id = ${meeting.companyId} and m.status in ('pending', 'confirmed') and m.document_id <> ${meeting.id} and m.starts_at < ${meeting.startsAt})`;
  const rows = await db
    .select({ title: resolutions.title, status: resolutions.status, effectiveAt: writtenEffectiveAt })
    .from(resolutions)
    .where(
      and(
        eq(resolutions.companyId, meeting.companyId),
        eq(resolutions.procedure, "written"),
        inArray(resolutions.status, ["approved", "referred"]),
        gt(writtenEffectiveAt, sql`coalesce(${previousStart}, '-infinity'::timestamptz)`),
        lte(writtenEffectiveAt, meeting.startsAt),
      ),
    )
    .orderBy(asc(writtenEffectiveAt), asc(resolutions.id));
  const of = (status: string) =>
    rows.filter((row) => row.status === status).map((row) => ({ title: row.title, effectiveAt: row.effectiveAt }));
  return { passed: of("approved"), referred: of("referred") };
}
export type { WrittenSinceLastMeeting } from "./agenda-written";
