import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import type { Queryable } from "../../db/client";
import { meetingParticipants, meetings } from "../../db/schema";

/** A span of time that starts after `after` and ends at `until`, inclusive. */
export interface Upcoming {
  after: Date;
  until: Date;
}

/** A meeting still to be held (pending or confirmed) that starts within the span. */
const startsWithin = ({ after, until }: Upcoming) =>
  and(gt(meetings.startsAt, after), lte(meetings.startsAt, until), inArray(meetings.status, ["pending", "confirmed"]));

/** Every participant of each meeting still to be held that starts within the span: soonest meeting first, then by user. */
export function participantsOfMeetingsStarting(db: Queryable, span: Upcoming) {
  return db
    .select({
      id: meetings.documentId,
      companyId: meetings.companyId,
      title: meetings.title,
      startsAt: meetings.startsAt,
      location: meetings.location,
      userId: meetingParticipants.userId,
    })
    .from(meetings)
    .innerJoin(meetingParticipants, eq(meetingParticipants.meetingId, meetings.documentId))
    .where(startsWithin(span))
    .orderBy(asc(meetings.startsAt), asc(meetings.documentId), asc(meetingParticipants.userId));
}

/** The companies' meetings still to be held that start within the span, soonest first. */
export function meetingsStarting(db: Queryable, companyIds: number[], span: Upcoming) {
  return db
    .select({
      companyId: meetings.companyId,
      id: meetings.documentId,
      title: meetings.title,
      startsAt: meetings.startsAt,
      location: meetings.location,
    })
    .from(meetings)
    .where(and(inArray(meetings.companyId, companyIds), startsWithin(span)))
    .orderBy(asc(meetings.startsAt), asc(meetings.documentId));
}
