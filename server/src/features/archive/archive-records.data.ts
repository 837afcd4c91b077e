// The archive's listings of the board's record: resolutions (with their frozen certificates), votes, attendance and the
// agendas. One query each, whatever the company's size.
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import { nameColumns } from "../../db/columns";
import { agendaItems, meetingAttendance, meetingGuests, meetingParticipants, meetings, resolutions, users, votes } from "../../db/schema";

/** Every resolution of the company, oldest first, with who proposed it and its certificates once decided. */
export function listResolutions(deps: ServiceDeps<"db">, companyId: number) {
  return deps.db
    .select({
      id: resolutions.id,
      title: resolutions.title,
      description: resolutions.description,
      procedure: resolutions.procedure,
      type: resolutions.type,
      status: resolutions.status,
      createdAt: resolutions.createdAt,
      deadline: resolutions.deadline,
      decidedAt: resolutions.decidedAt,
      explanation: resolutions.explanation,
      textSha256: resolutions.textSha256,
      certificate: resolutions.certificate,
      writtenCertificate: resolutions.writtenCertificate,
      createdBy: resolutions.createdBy,
      ...nameColumns,
    })
    .from(resolutions)
    .leftJoin(users, eq(users.id, resolutions.createdBy))
    .where(eq(resolutions.companyId, companyId))
    .orderBy(asc(resolutions.id));
}

/** Every vote on the company's resolutions as it stands (a changed vote shows its last choice and time). */
export function listVotes(deps: ServiceDeps<"db">, companyId: number) {
  return deps.db
    .select({
      resolutionId: votes.resolutionId,
      userId: votes.userId,
      ...nameColumns,
      vote: votes.vote,
      comment: votes.comment,
      firstCastAt: votes.createdAt,
      castAt: votes.updatedAt,
    })
    .from(votes)
    .innerJoin(resolutions, eq(resolutions.id, votes.resolutionId))
    .innerJoin(users, eq(users.id, votes.userId))
    .where(eq(resolutions.companyId, companyId))
    .orderBy(asc(votes.resolutionId), asc(votes.id));
}

/**
 * Each meeting's participants with how they attended (absent when nothing was recorded for them, as the app shows
 * it), and whether the meeting's attendance was recorded at all; then its guests.
 */
export async function listAttendance(deps: ServiceDeps<"db">, companyId: number) {
  const ofTheCompany = and(eq(meetings.companyId, companyId), ne(meetings.status, "draft"));
  const recorded = sql<boolean>`(${meetings.chairId} is not null or exists (select 1 from ${meetingAttendance} recorded where recorded.meeting_id = ${meetings.documentId}))`;
  const [participants, guests] = await Promise.all([
    deps.db
      .select({
        meetingId: meetings.documentId,
        userId: users.id,
        ...nameColumns,
        status: meetingAttendance.status,
        chairId: meetings.chairId,
        recorded,
      })
      .from(meetingParticipants)
      .innerJoin(meetings, eq(meetings.documentId, meetingParticipants.meetingId))
      .innerJoin(users, eq(users.id, meetingParticipants.userId))
      .leftJoin(
        meetingAttendance,
        and(eq(meetingAttendance.meetingId, meetingParticipants.meetingId), eq(meetingAttendance.userId, meetingParticipants.userId)),
      )
      .where(ofTheCompany)
      .orderBy(asc(meetings.startsAt), asc(meetings.documentId), asc(users.firstName), asc(users.lastName), asc(users.id)),
    deps.db
      .select({ meetingId: meetingGuests.meetingId, name: meetingGuests.name })
      .from(meetingGuests)
      .innerJoin(meetings, eq(meetings.documentId, meetingGuests.meetingId))
      .where(ofTheCompany)
      .orderBy(asc(meetings.startsAt), asc(meetings.documentId), asc(meetingGuests.position)),
  ]);
  return { participants, guests };
}

/** Every agenda item of the company's meetings in order, with its presenter and the papers and resolutions it takes. */
export function listAgendaItems(deps: ServiceDeps<"db">, companyId: number) {
  const idsOf = (table: "agenda_item_documents" | "agenda_item_resolutions", column: "document_id" | "resolution_id") =>
    sql<string>`coalesce((select string_agg(${sql.raw(column)}::text, ' ' order by position) from ${sql.raw(table)} where item_id = ${agendaItems.id}), '')`;
  return deps.db
    .select({
      meetingId: agendaItems.meetingId,
      position: agendaItems.position,
      title: agendaItems.title,
      purpose: agendaItems.purpose,
      durationMinutes: agendaItems.durationMinutes,
      description: agendaItems.description,
      presenterId: agendaItems.presenterId,
      ...nameColumns,
      paperIds: idsOf("agenda_item_documents", "document_id"),
      resolutionIds: idsOf("agenda_item_resolutions", "resolution_id"),
    })
    .from(agendaItems)
    .innerJoin(meetings, eq(meetings.documentId, agendaItems.meetingId))
    .leftJoin(users, eq(users.id, agendaItems.presenterId))
    .where(and(eq(meetings.companyId, companyId), ne(meetings.status, "draft")))
    .orderBy(asc(meetings.startsAt), asc(meetings.documentId), asc(agendaItems.position));
}

export type ResolutionRow = Awaited<ReturnType<typeof listResolutions>>[number];
export type VoteRow = Awaited<ReturnType<typeof listVotes>>[number];
export type AttendanceRows = Awaited<ReturnType<typeof listAttendance>>;
export type AgendaItemRow = Awaited<ReturnType<typeof listAgendaItems>>[number];
