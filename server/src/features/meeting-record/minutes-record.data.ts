// Everything minutes are drafted from, read in a fixed number of queries whatever the size of the meeting: the
// draft is a function of this record alone, so the same record always gives the same text.
import { and, asc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { AgendaPurpose } from "../../../../shared/meeting-model";
import type { Attendance } from "../../../../shared/meeting-record";
import { displayName } from "../../../../shared/people";
import type { Certificate, ResolutionStatus, ResolutionType, Tally } from "../../../../shared/resolutions";
import type { Queryable } from "../../db/client";
import { companies, documents, meetings, resolutions, users } from "../../db/schema";
import { readAgenda } from "../meetings/agenda-items.service";
import { writtenSinceLastMeeting } from "../meetings/written-since-last-meeting.service";
import { readMeetingActionItems } from "./action-items.data";
import { readAttendance, recordedMeeting, type RecordedMeeting } from "./attendance.data";
import { presenterNames } from "./agenda-presenters.data";

/**
 * Where a decided resolution was decided: by a show of hands at this meeting or at another (the day it started), or
 * by an online vote (the day it was decided).
 */
export type DecidedWhere = { by: "thisMeeting" } | { by: "otherMeeting"; meetingDay: Date } | { by: "online"; decidedAt: Date };

export interface MinutesResolution {
  id: number;
  title: string;
  description: string;
  type: ResolutionType;
  status: ResolutionStatus;
  /** The frozen tally of a decided resolution; null while pending. */
  tally: Tally | null;
  /** Where it was decided; null while pending. */
  decided: DecidedWhere | null;
}

export interface MinutesItem {
  title: string;
  /** What the item is for: the minutes say "(for decision)", "(for discussion)" or "(for noting)". */
  purpose: AgendaPurpose;
  presenter: string | null;
  /** The papers' names, in the item's order. */
  papers: string[];
  resolutions: MinutesResolution[];
}

export interface MinutesRecord {
  company: string;
  meeting: RecordedMeeting;
  /** The chair's name; null when none is recorded. */
  chair: string | null;
  attendance: Attendance;
  items: MinutesItem[];
  /**
   * The resolutions a show of hands at this meeting decided that are not on its agenda, in the order they were
   * decided: the minutes record every decision taken at the meeting.
   */
  otherDecisions: MinutesResolution[];
  /**
   * The written resolutions passed since the company's previous meeting (after its start) and by this one's start, in
   * the order they took effect: the minutes record them as noted.
   */
  writtenResolutions: { title: string; effectiveAt: Date }[];
  actionItems: { title: string; owner: string; dueDate: string }[];
}

function decidedWhere(meetingId: number, certificate: Certificate, decidingMeetingStart: Date | null): DecidedWhere {
  if (certificate.meetingId === undefined) return { by: "online", decidedAt: new Date(certificate.decidedAt) };
  if (certificate.meetingId === meetingId) return { by: "thisMeeting" };
  // A show of hands happens during its meeting: should that meeting be gone, the day of the decision is its day.
  return { by: "otherMeeting", meetingDay: decidingMeetingStart ?? new Date(certificate.decidedAt) };
}

/**
 * The resolutions on a meeting's agenda (`agendaIds`) and those a show of hands at it decided, in the order they were
 * decided, each with the start of the meeting whose show of hands decided it (named by its certificate, and of the
 * same company).
 */
function readMeetingResolutions(db: Queryable, meeting: RecordedMeeting, agendaIds: number[]) {
  // Compared as text: a cast would make one certificate with an odd meetingId fail every minutes read of the company.
  const decidedHere = and(ne(resolutions.status, "pending"), sql`${resolutions.certificate} ->> 'meetingId' = ${String(meeting.id)}`);
  return db
    .select({
      id: resolutions.id,
      title: resolutions.title,
      description: resolutions.description,
      type: resolutions.type,
      status: resolutions.status,
      certificate: resolutions.certificate,
      decidingMeetingStart: meetings.startsAt,
    })
    .from(resolutions)
    .leftJoin(
      meetings,
      and(sql`${meetings.documentId}::text = ${resolutions.certificate} ->> 'meetingId'`, eq(meetings.companyId, resolutions.companyId)),
    )
    .where(
      and(
        eq(resolutions.companyId, meeting.companyId),
        agendaIds.length === 0 ? decidedHere : or(inArray(resolutions.id, agendaIds), decidedHere),
      ),
    )
    .orderBy(asc(resolutions.decidedAt), asc(resolutions.id));
}

function minutesResolution(meetingId: number, row: Awaited<ReturnType<typeof readMeetingResolutions>>[number]): MinutesResolution {
  const certificate = row.status === "pending" ? null : row.certificate;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    type: row.type,
    status: row.status,
    tally: certificate ? { yes: certificate.yes, no: certificate.no, abstain: certificate.abstain } : null,
    decided: certificate ? decidedWhere(meetingId, certificate, row.decidingMeetingStart) : null,
  };
}

/**
 * The record of a meeting (404 for a draft or a missing one): at most thirteen queries, one after the other when
 * `db` is a transaction.
 */
export async function readMinutesRecord(db: Queryable, meetingId: number): Promise<MinutesRecord> {
  const meeting = await recordedMeeting(db, meetingId);
  const [[heading], attendance, agenda, actionItems, written] = await Promise.all([
    db
      .select({ company: companies.name, chairFirst: users.firstName, chairLast: users.lastName, chairUsername: users.username })
      .from(meetings)
      .innerJoin(companies, eq(companies.id, meetings.companyId))
      .leftJoin(users, eq(users.id, meetings.chairId))
      .where(eq(meetings.documentId, meetingId)),
    readAttendance(db, meeting),
    readAgenda(db, meetingId, { startsAt: meeting.startsAt }),
    readMeetingActionItems(db, meetingId),
    writtenSinceLastMeeting(db, meeting),
  ]);

  const documentIds = [...new Set(agenda.flatMap((item) => item.documentIds))];
  const resolutionIds = [...new Set(agenda.flatMap((item) => item.resolutionIds))];
  const [presenters, paperRows, resolutionRows] = await Promise.all([
    presenterNames(db, agenda),
    documentIds.length === 0
      ? []
      : db
          .select({ id: documents.id, name: documents.name })
          .from(documents)
          .leftJoin(meetings, eq(meetings.documentId, documents.id))
          .where(and(inArray(documents.id, documentIds), eq(documents.companyId, meeting.companyId), isNull(meetings.documentId))),
    readMeetingResolutions(db, meeting, resolutionIds),
  ]);

  const papers = new Map(paperRows.map((row) => [row.id, row.name]));
  const resolutionsById = new Map(resolutionRows.map((row) => [row.id, minutesResolution(meetingId, row)]));
  const onAgenda = new Set(resolutionIds);
  const otherDecisions = [...resolutionsById.values()].filter(
    (resolution) => !onAgenda.has(resolution.id) && resolution.decided?.by === "thisMeeting",
  );
  const chair =
    meeting.chairId == null || !heading
      ? null
      : displayName({ firstName: heading.chairFirst, lastName: heading.chairLast, username: heading.chairUsername });

  return {
    company: heading?.company ?? "",
    meeting,
    chair: chair || null,
    attendance,
    items: agenda.map((item) => ({
      title: item.title,
      purpose: item.purpose,
      presenter: item.presenterId == null ? null : (presenters.get(item.presenterId) ?? null),
      papers: item.documentIds.flatMap((id) => papers.get(id) ?? []),
      resolutions: item.resolutionIds.flatMap((id) => resolutionsById.get(id) ?? []),
    })),
    otherDecisions,
    writtenResolutions: written.passed,
    actionItems: actionItems.map((item) => ({ title: item.title, owner: item.ownerName, dueDate: item.dueDate })),
  };
}
