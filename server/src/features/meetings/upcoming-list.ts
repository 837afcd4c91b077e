// The dashboard's upcoming meetings, kept with the company's lists and cut to the clock on each read.
import { and, asc, eq, gt, inArray, lt, max, notInArray, sql } from "drizzle-orm";
import type { ListedMeeting, UpcomingMeeting } from "../../../../shared/meetings";
import type { ServiceDeps } from "../../app-deps";
import type { CompanyListCache } from "../../db/company-list-cache";
import { preparedPerDatabase } from "../../db/prepared";
import { agendaItemDocuments, agendaItems, documentPageReads, documents, meetingParticipants, meetings } from "../../db/schema";
import { meetingScheduleColumns } from "../../db/columns";

type MeetingDeps = ServiceDeps<"db" | "clock">;

/** How many meetings the upcoming list answers at most (the dashboard panel; /meetings has them all). */
const upcomingLimit = 10;

/** How many upcoming meetings a kept list holds: twice those shown, so meetings that start while it is kept leave ten. */
const keptUpcomingLimit = 2 * upcomingLimit;

/** The company's next meetings from a moment, soonest first: one query on the (company, start time) index. */
const upcomingQuery = preparedPerDatabase((db) =>
  db
    .select({
      id: meetings.documentId,
      ...meetingScheduleColumns,
      participantCount: sql<number>`(select count(*)::int from ${meetingParticipants} where ${meetingParticipants.meetingId} = ${meetings.documentId})`,
    })
    .from(meetings)
    // A cancelled meeting is no longer coming up (calendars still carry it, marked cancelled).
    .where(
      and(
        eq(meetings.companyId, sql.placeholder("companyId")),
        gt(meetings.startsAt, sql.placeholder("now")),
        notInArray(meetings.status, ["draft", "cancelled"]),
      ),
    )
    .orderBy(asc(meetings.startsAt), asc(meetings.documentId))
    .limit(keptUpcomingLimit)
    .prepare("quorum_upcoming_meetings"),
);

/** A company's upcoming meetings as read at one moment, mapped to their answer once for as long as they are kept. */
interface UpcomingFrom {
  meetings: ListedMeeting[];
  /** Each meeting's start (ms), in the same order. */
  startsAt: number[];
  /** Every meeting that was upcoming at that moment (fewer than the query's limit). */
  whole: boolean;
}

async function readUpcoming(db: MeetingDeps["db"], companyId: number, now: Date): Promise<{ value: UpcomingFrom; ids: number[] }> {
  const rows = await upcomingQuery(db).execute({ companyId, now: now.toISOString() });
  const listed = rows.map((row) => ({
    id: row.id,
    title: row.title,
    date: row.startsAt.toISOString(),
    endDate: row.endsAt.toISOString(),
    location: row.location,
    status: row.status,
    participantCount: Number(row.participantCount),
  }));
  const startsAt = rows.map((row) => row.startsAt.getTime());
  return { value: { meetings: listed, startsAt, whole: rows.length < keptUpcomingLimit }, ids: rows.map((row) => row.id) };
}

/**
 * `GET /api/companies/:companyId/meetings/upcoming`: the company's next ten meetings, soonest first. Every dashboard
 * visit asks for it, so the list is kept with the company's lists until one of its meetings changes (`lists`), and
 * cut to the clock's moment on each read: a meeting that has started since is dropped, and one further down the kept
 * list takes its place. Should more have started than the kept list holds beyond ten, it is read again.
 */
export async function upcomingMeetings(
  deps: MeetingDeps,
  caller: { companyId: number; userId: number },
  lists?: CompanyListCache,
): Promise<UpcomingMeeting[]> {
  const { companyId } = caller;
  const now = deps.clock.now();
  const load = () => readUpcoming(deps.db, companyId, now);
  const kept = lists ? await lists.read(companyId, "upcoming meetings", now.getTime(), load) : (await load()).value;
  // Sorted by start: those no longer upcoming lead the list.
  let first = 0;
  while (first < kept.startsAt.length && kept.startsAt[first]! <= now.getTime()) first += 1;
  const shown =
    kept.whole || kept.meetings.length - first >= upcomingLimit
      ? kept.meetings.slice(first, first + upcomingLimit)
      : (await load()).value.meetings.slice(0, upcomingLimit);
  // The kept list is the company's; what the caller has read is theirs, so it is asked for on every read.
  const changed = await meetingsWithPapersChanged(
    deps.db,
    caller.userId,
    shown.map((meeting) => meeting.id),
  );
  return shown.map((meeting) => ({ ...meeting, papersChanged: changed.has(meeting.id) }));
}

/**
 * Of these meetings, those with an agenda paper the caller opened in an earlier version and not yet in its latest:
 * one query whatever the count.
 */
async function meetingsWithPapersChanged(db: MeetingDeps["db"], userId: number, meetingIds: number[]): Promise<Set<number>> {
  if (meetingIds.length === 0) return new Set();
  const lastRead = db
    .select({ documentId: documentPageReads.documentId, version: max(documentPageReads.version).as("last_read_version") })
    .from(documentPageReads)
    .where(eq(documentPageReads.userId, userId))
    .groupBy(documentPageReads.documentId)
    .as("last_read");
  const rows = await db
    .selectDistinct({ meetingId: agendaItems.meetingId })
    .from(agendaItems)
    .innerJoin(agendaItemDocuments, eq(agendaItemDocuments.itemId, agendaItems.id))
    .innerJoin(documents, eq(documents.id, agendaItemDocuments.documentId))
    .innerJoin(lastRead, eq(lastRead.documentId, documents.id))
    .where(and(inArray(agendaItems.meetingId, meetingIds), lt(lastRead.version, documents.version)));
  return new Set(rows.map((row) => row.meetingId));
}
