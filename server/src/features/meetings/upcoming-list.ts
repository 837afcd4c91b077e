// The dashboard's upcoming meetings, kept with the company's lists and cut to the clock on each read.
import { and, asc, eq, gt, notInArray, sql } from "drizzle-orm";
import type { ListedMeeting } from "../../../../shared/meetings";
import type { ServiceDeps } from "../../app-deps";
import type { CompanyListCache } from "../../db/company-list-cache";
import { preparedPerDatabase } from "../../db/prepared";
import { meetingParticipants, meetings } from "../../db/schema";
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
export async function upcomingMeetings(deps: MeetingDeps, companyId: number, lists?: CompanyListCache): Promise<ListedMeeting[]> {
  const now = deps.clock.now();
  const load = () => readUpcoming(deps.db, companyId, now);
  const kept = lists ? await lists.read(companyId, "upcoming meetings", now.getTime(), load) : (await load()).value;
  // Sorted by start: those no longer upcoming lead the list.
  let first = 0;
  while (first < kept.startsAt.length && kept.startsAt[first]! <= now.getTime()) first += 1;
  if (kept.whole || kept.meetings.length - first >= upcomingLimit) return kept.meetings.slice(first, first + upcomingLimit);
  return (await load()).value.meetings.slice(0, upcomingLimit);
}
