import { and, eq, inArray, lt, ne, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { displayName } from "../../../../shared/people";
import { meetingCategory, meetingEndFrom, meetingFileType, meetingNamePrefix, type MeetingStatus } from "../../../../shared/meeting-model";
import { meetingContentSchema, type MeetingContent, type MeetingContentWire } from "../../../../shared/meetings";
import { can, deniedMessage } from "../../../../shared/permissions";
import type { ServiceDeps } from "../../app-deps";
import { recordAudit } from "../../db/audit";
import type { Queryable, Transaction } from "../../db/client";
import { documents, meetingParticipants, meetings, memberships } from "../../db/schema";
import { meetingScheduleColumns } from "../../db/columns";
import { forbidden, HttpError, notFound } from "../../http/errors";
import type { TenantContext } from "../../http/request-context";
import { buildCalendar, type CalendarEvent } from "../../integrations/calendar";
import { notify } from "../notifications/notifications.service";
import { insertItemsFromAgendaText } from "./agenda-items.service";

type MeetingDeps = ServiceDeps<"db" | "clock">;

/** Drafts (made for agenda generation) are deleted once they are this old. */
const draftLifetimeMs = 24 * 60 * 60 * 1000;

const invalid = (path: string, message: string) => new HttpError(400, message, {}, [{ path, message }]);

/** The columns a meeting's content is rebuilt from. */
const meetingContentColumns = {
  ...meetingScheduleColumns,
  agenda: meetings.agenda,
};
interface MeetingContentRow {
  title: string;
  startsAt: Date;
  endsAt: Date;
  location: string;
  status: MeetingStatus;
  agenda: string | null;
}

/** The document `content` of a meeting, rebuilt from its rows (keys in a fixed order, so its length is stable). */
function meetingContentText(row: MeetingContentRow, participantIds: readonly number[]): string {
  const content: MeetingContentWire = {
    type: "meeting",
    title: row.title,
    date: row.startsAt.toISOString(),
    endDate: row.endsAt.toISOString(),
    location: row.location,
    status: row.status,
    participants: [...participantIds].sort((a, b) => a - b).map(String),
    agenda: row.agenda ?? "",
  };
  return JSON.stringify(content);
}

/**
 * The `content` of those of `documentIds` that are meetings (drafts included), rebuilt from their rows with
 * their participants, in one query whatever their number. Documents that are not meetings are absent.
 */
export async function meetingContents(db: Queryable, documentIds: readonly number[]): Promise<Map<number, string>> {
  const contents = new Map<number, string>();
  if (documentIds.length === 0) return contents;
  const rows = await db
    .select({
      id: meetings.documentId,
      ...meetingContentColumns,
      participants: sql<
        number[]
      >`coalesce((select json_agg(${meetingParticipants.userId}) from ${meetingParticipants} where ${meetingParticipants.meetingId} = ${meetings.documentId}), '[]'::json)`,
    })
    .from(meetings)
    .where(inArray(meetings.documentId, [...documentIds]));
  for (const row of rows) contents.set(row.id, meetingContentText(row, row.participants.map(Number)));
  return contents;
}

/** A condition on a document id column: true unless the document is a draft meeting (drafts are never read as documents). */
export function notADraftMeeting(documentId: SQLWrapper): SQL {
  return sql`not exists (select 1 from ${meetings} where ${meetings.documentId} = ${documentId} and ${meetings.status} = 'draft')`;
}

/** A meeting's content is its details as JSON: a file offered as one is refused (as soon as its category is known). */
export function refuseMeetingFile(category: unknown): void {
  if (category === meetingCategory) throw invalid("content", "A meeting's content is its details as JSON, not a file");
}

function parseMeetingContent(text: string): MeetingContent {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid("content", "Meeting content must be JSON");
  }
  const result = meetingContentSchema.safeParse(raw);
  if (!result.success) {
    const errors = result.error.issues.map((issue) => ({ path: ["content", ...issue.path].join("."), message: issue.message }));
    throw new HttpError(400, errors[0]?.message ?? "Invalid meeting", {}, errors);
  }
  return result.data;
}

/** The document row and the meeting row of one meeting (scheduled or draft); the caller holds the transaction. */
async function insertMeeting(
  tx: Transaction,
  tenant: TenantContext,
  now: Date,
  row: MeetingContentRow,
  fileSize: number,
): Promise<{ id: number }> {
  const [document] = await tx
    .insert(documents)
    .values({
      companyId: tenant.company.id,
      name: `${meetingNamePrefix}${row.title}`,
      fileType: meetingFileType,
      fileSize,
      category: meetingCategory,
      uploadedBy: tenant.user.id,
      createdAt: now,
    })
    .returning({ id: documents.id });
  if (!document) throw new Error("document insert returned nothing");
  await tx
    .insert(meetings)
    .values({ documentId: document.id, companyId: tenant.company.id, ...row, createdBy: tenant.user.id, createdAt: now });
  return document;
}

/**
 * `POST /api/documents` with category Meeting (a meeting is a document on the wire; the documents route hands
 * its body here). Schedules a meeting from the body's `content` (the meeting's JSON): validates it, checks
 * that every participant is a member of the company, and writes the document, meeting, participants and
 * notifications in one transaction. Answers the new document id. A meeting scheduled as confirmed or cancelled
 * is one confirmed or cancelled at once, which only founders and admins may do (403 for anyone else).
 */
export async function scheduleMeeting(
  deps: MeetingDeps,
  tenant: TenantContext,
  input: { content: string; sendNotifications?: boolean },
): Promise<number> {
  const content = parseMeetingContent(input.content);
  if (content.status !== "pending" && !can(tenant.role, "manageMeeting")) throw forbidden(deniedMessage("manageMeeting"));
  const companyId = tenant.company.id;
  const now = deps.clock.now();
  const row: MeetingContentRow = {
    title: content.title,
    startsAt: content.date,
    endsAt: content.endDate,
    location: content.location,
    status: content.status,
    agenda: content.agenda,
  };
  const text = meetingContentText(row, content.participants);

  return deps.db.transaction(async (tx) => {
    if (content.participants.length > 0) {
      const members = await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.companyId, companyId), inArray(memberships.userId, content.participants)));
      if (members.length !== content.participants.length) {
        throw invalid("content.participants", "Participants must be members of the company");
      }
    }
    const document = await insertMeeting(tx, tenant, now, row, Buffer.byteLength(text, "utf8"));
    await insertItemsFromAgendaText(tx, document.id, content.agenda);
    if (content.participants.length > 0) {
      await tx.insert(meetingParticipants).values(content.participants.map((userId) => ({ meetingId: document.id, userId })));
    }
    await recordAudit(tx, deps.clock, {
      actorId: tenant.user.id,
      companyId,
      action: "meeting.scheduled",
      targetType: "meeting",
      targetId: document.id,
      details: { title: row.title, startsAt: row.startsAt.toISOString(), location: row.location, status: row.status },
    });
    if (input.sendNotifications) {
      const actor = displayName(tenant.user);
      // The scheduler knows; everyone else they invited is told (unless their Meeting Reminders switch is off).
      await notify(tx, {
        kind: "meetingScheduled",
        companyId,
        recipients: content.participants.filter((userId) => userId !== tenant.user.id),
        title: `Meeting scheduled: ${content.title}`,
        body: `${actor} added you to "${content.title}" (${content.location}).`,
        link: `/meetings/${document.id}`,
        at: now,
      });
    }
    return document.id;
  });
}

/**
 * `POST /api/new-meeting`: a draft (status draft, never listed) to generate an agenda for. Drafts older than a
 * day are deleted in the same transaction, with one statement, so no timer is needed.
 */
export async function createDraft(
  deps: MeetingDeps,
  tenant: TenantContext,
  input: { title: string; date: Date; location: string },
): Promise<{ id: number }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await tx.delete(documents).where(
      inArray(
        documents.id,
        tx
          .select({ id: meetings.documentId })
          .from(meetings)
          .where(and(eq(meetings.status, "draft"), lt(meetings.createdAt, new Date(now.getTime() - draftLifetimeMs)))),
      ),
    );
    const row: MeetingContentRow = {
      title: input.title,
      startsAt: input.date,
      endsAt: meetingEndFrom(input.date),
      location: input.location,
      status: "draft",
      agenda: null,
    };
    return insertMeeting(tx, tenant, now, row, 0);
  });
}

/** The calendar status of a meeting: a pending one is tentative until confirmed. */
const eventStatuses = { draft: "TENTATIVE", pending: "TENTATIVE", confirmed: "CONFIRMED", cancelled: "CANCELLED" } as const;

/**
 * A meeting as a calendar event; its uid is the same in every calendar, so a calendar app keeps one copy, and
 * its sequence grows with each confirmation, move or cancellation, so the app takes the newer version.
 */
export function meetingEvent(meeting: {
  id: number;
  title: string;
  startsAt: Date;
  endsAt: Date;
  location: string;
  agenda: string | null;
  status: MeetingStatus;
  sequence: number;
}): CalendarEvent {
  return {
    uid: `meeting-${meeting.id}@quorum`,
    start: meeting.startsAt,
    end: meeting.endsAt,
    summary: meeting.title,
    location: meeting.location,
    description: meeting.agenda ?? "",
    status: eventStatuses[meeting.status],
    sequence: meeting.sequence,
  };
}

/** `GET /api/meetings/:id/calendar.ics`: an RFC 5545 event; drafts are not meetings yet (404). */
export async function meetingCalendar(deps: MeetingDeps, meetingId: number): Promise<{ filename: string; body: string }> {
  const [meeting] = await deps.db
    .select({ ...meetingContentColumns, sequence: meetings.sequence })
    .from(meetings)
    .where(and(eq(meetings.documentId, meetingId), ne(meetings.status, "draft")));
  if (!meeting) throw notFound("Meeting not found");
  const body = buildCalendar([meetingEvent({ id: meetingId, ...meeting })], { stamp: deps.clock.now() });
  return { filename: `meeting-${meetingId}.ics`, body };
}
