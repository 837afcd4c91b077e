// The records/ folder of the archive: the board's record as tables, each written as CSV and as JSON.
import type { ActionItem } from "../../../../shared/meeting-record";
import { displayName } from "../../../../shared/people";
import type { AgendaItemRow, AttendanceRows, ResolutionRow, VoteRow } from "./archive-records.data";
import type { MeetingRow } from "./archive-files.data";
import { csvLines, jsonLines, type Cell, type Table } from "./archive-tables";
import { textStream, type ArchiveEntry } from "./archive-writer";

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** What the tables are made from: the listings, and where the archive put each meeting's papers and each certificate. */
export interface RecordSources {
  meetings: MeetingRow[];
  meetingFolders: Map<number, string>;
  resolutions: ResolutionRow[];
  certificateFolders: Map<number, string>;
  votes: VoteRow[];
  attendance: AttendanceRows;
  actionItems: ActionItem[];
  agendaItems: AgendaItemRow[];
}

/** A table whose columns are checked against its rows' keys. */
function table<Row extends Record<string, Cell>>(columns: readonly (keyof Row & string)[], rows: Row[]): Table {
  return { columns, rows };
}

/** The tables by file name (without extension), in the order they are written. */
export function recordTables(sources: RecordSources): [string, Table][] {
  const meetingTitles = new Map(sources.meetings.map((meeting) => [meeting.id, meeting.title]));
  const resolutionTitles = new Map(sources.resolutions.map((resolution) => [resolution.id, resolution.title]));
  const tables: [string, Table][] = [
    [
      "resolutions",
      table(
        [
          "id",
          "title",
          "description",
          "procedure",
          "type",
          "status",
          "proposedById",
          "proposedBy",
          "createdAt",
          "deadline",
          "decidedAt",
          "explanation",
          "textSha256",
          "certificateFolder",
        ],
        sources.resolutions.map((row) => ({
          id: row.id,
          title: row.title,
          description: row.description,
          procedure: row.procedure,
          type: row.type,
          status: row.status,
          proposedById: row.createdBy,
          proposedBy: row.createdBy === null || row.username === null ? null : displayName(row),
          createdAt: iso(row.createdAt),
          deadline: iso(row.deadline),
          decidedAt: iso(row.decidedAt),
          explanation: row.explanation,
          textSha256: row.textSha256,
          certificateFolder: sources.certificateFolders.get(row.id) ?? null,
        })),
      ),
    ],
    [
      "votes",
      table(
        ["resolutionId", "resolution", "userId", "voter", "vote", "comment", "firstCastAt", "castAt"],
        sources.votes.map((row) => ({
          resolutionId: row.resolutionId,
          resolution: resolutionTitles.get(row.resolutionId) ?? null,
          userId: row.userId,
          voter: displayName(row),
          vote: row.vote,
          comment: row.comment,
          firstCastAt: iso(row.firstCastAt),
          castAt: iso(row.castAt),
        })),
      ),
    ],
    [
      "attendance",
      table(
        ["meetingId", "meeting", "userId", "name", "status", "chair", "attendanceRecorded"],
        [
          ...sources.attendance.participants.map((row) => ({
            meetingId: row.meetingId,
            meeting: meetingTitles.get(row.meetingId) ?? null,
            userId: row.userId,
            name: displayName(row),
            status: row.status ?? "absent",
            chair: row.chairId === row.userId,
            attendanceRecorded: row.recorded,
          })),
          ...sources.attendance.guests.map((row) => ({
            meetingId: row.meetingId,
            meeting: meetingTitles.get(row.meetingId) ?? null,
            userId: null,
            name: row.name,
            status: "guest",
            chair: false,
            attendanceRecorded: true,
          })),
        ],
      ),
    ],
    [
      "action-items",
      table(
        ["id", "meetingId", "meeting", "title", "ownerId", "owner", "dueDate", "status"],
        sources.actionItems.map((item) => ({
          id: item.id,
          meetingId: item.meetingId,
          meeting: item.meetingTitle,
          title: item.title,
          ownerId: item.ownerId,
          owner: item.ownerName,
          dueDate: item.dueDate,
          status: item.status,
        })),
      ),
    ],
    [
      "meetings",
      table(
        ["id", "title", "startsAt", "endsAt", "location", "status", "chairId", "chair", "closedAt", "papersFolder"],
        sources.meetings.map((row) => ({
          id: row.id,
          title: row.title,
          startsAt: iso(row.startsAt),
          endsAt: iso(row.endsAt),
          location: row.location,
          status: row.status,
          chairId: row.chairId,
          chair: row.chairId === null || row.username === null ? null : displayName(row),
          closedAt: iso(row.closedAt),
          papersFolder: sources.meetingFolders.get(row.id) ?? null,
        })),
      ),
    ],
    [
      "agenda-items",
      table(
        [
          "meetingId",
          "meeting",
          "position",
          "title",
          "purpose",
          "durationMinutes",
          "presenterId",
          "presenter",
          "description",
          "paperIds",
          "resolutionIds",
        ],
        sources.agendaItems.map((row) => ({
          meetingId: row.meetingId,
          meeting: meetingTitles.get(row.meetingId) ?? null,
          position: row.position + 1,
          title: row.title,
          purpose: row.purpose,
          durationMinutes: row.durationMinutes,
          presenterId: row.presenterId,
          presenter: row.presenterId === null || row.username === null ? null : displayName(row),
          description: row.description,
          paperIds: row.paperIds,
          resolutionIds: row.resolutionIds,
        })),
      ),
    ],
  ];
  return tables;
}

/** Each table as records/<name>.csv and records/<name>.json. */
export function recordEntries(sources: RecordSources, createdAt: Date): ArchiveEntry[] {
  return recordTables(sources).flatMap(([name, rows]) => [
    { path: `records/${name}.csv`, open: () => textStream(csvLines(rows)), compress: true, mtime: createdAt },
    { path: `records/${name}.json`, open: () => textStream(jsonLines(rows)), compress: true, mtime: createdAt },
  ]);
}
