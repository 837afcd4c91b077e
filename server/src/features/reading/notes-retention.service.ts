import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import { formatUtcDate, startSweep } from "../../clock";
import {
  agendaItemDocuments,
  agendaItems,
  companies,
  meetingMinutes,
  meetings,
  memberships,
  paperNoteRetentionNotices,
  paperNotes,
} from "../../db/schema";
import { notifyEach, type NotifyInput } from "../notifications/notifications.service";

// A board may keep its directors' notes only for a while: a meeting's notes (the notes on its agenda's papers) are
// deleted `notesRetentionDays` after its minutes are approved, their authors told a week before. A paper on several
// meetings' agendas keeps its notes until the last of those meetings is due.

const dayMs = 24 * 60 * 60 * 1000;
/** How long before the deletion its authors are told. */
export const retentionNoticeMs = 7 * dayMs;

type Deps = ServiceDeps<"db" | "clock">;

interface PaperDue {
  documentId: number;
  companyId: number;
  /** The meeting whose approval, the latest of the paper's, decides when its notes go. */
  meetingId: number;
  meetingTitle: string;
  due: Date;
}

/**
 * When the notes on each paper with notes are due for deletion: the latest of its meetings' approvals plus the
 * company's retention. A paper with a meeting whose minutes are not approved yet is not due (cancelled meetings and
 * drafts have no minutes to wait for). One query.
 */
async function papersDue({ db }: Deps): Promise<PaperDue[]> {
  const rows = await db
    .select({
      documentId: agendaItemDocuments.documentId,
      companyId: meetings.companyId,
      meetingId: meetings.documentId,
      meetingTitle: meetings.title,
      status: meetingMinutes.status,
      approvedAt: meetingMinutes.approvedAt,
      days: companies.notesRetentionDays,
    })
    .from(agendaItemDocuments)
    .innerJoin(agendaItems, eq(agendaItems.id, agendaItemDocuments.itemId))
    .innerJoin(meetings, eq(meetings.documentId, agendaItems.meetingId))
    .innerJoin(companies, eq(companies.id, meetings.companyId))
    .leftJoin(meetingMinutes, eq(meetingMinutes.meetingId, meetings.documentId))
    .where(
      and(
        sql`${companies.notesRetentionDays} is not null`,
        notInArray(meetings.status, ["draft", "cancelled"]),
        sql`exists (select 1 from ${paperNotes} where ${paperNotes.documentId} = ${agendaItemDocuments.documentId})`,
      ),
    );
  const byPaper = new Map<number, PaperDue | null>();
  for (const row of rows) {
    if (byPaper.get(row.documentId) === null) continue;
    if (row.status !== "approved" || row.approvedAt === null || row.days === null) {
      byPaper.set(row.documentId, null);
      continue;
    }
    const due = new Date(row.approvedAt.getTime() + row.days * dayMs);
    const known = byPaper.get(row.documentId);
    if (!known || due > known.due || (due.getTime() === known.due.getTime() && row.meetingId > known.meetingId)) {
      byPaper.set(row.documentId, {
        documentId: row.documentId,
        companyId: row.companyId,
        meetingId: row.meetingId,
        meetingTitle: row.meetingTitle,
        due,
      });
    }
  }
  return [...byPaper.values()].filter((paper): paper is PaperDue => paper !== null);
}

/**
 * One round of the retention sweep (on the injected clock): authors of notes due within a week are told once per
 * meeting (in the bell, and by e-mail as other reminders), and notes that are due are deleted — but never before their
 * author was told a week ahead: a board that shortens its retention, or sets one after a meeting is past it, gives its
 * directors the week all the same. Notes of authors who have left the board go when due. Answers how many it deleted.
 */
export async function sweepNoteRetention(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const papers = await papersDue(deps);
  const soon = papers.filter((paper) => paper.due.getTime() - retentionNoticeMs <= now.getTime());
  if (soon.length > 0) await tellAuthors(deps, soon, now);
  const due = papers.filter((paper) => paper.due <= now);
  const toldBy = new Date(now.getTime() - retentionNoticeMs);
  let deleted = 0;
  // One statement per deciding meeting (a sweep's few), each keeping the notes of authors told less than a week ago.
  for (const meetingId of new Set(due.map((paper) => paper.meetingId))) {
    const documentIds = due.filter((paper) => paper.meetingId === meetingId).map((paper) => paper.documentId);
    const gone = await deps.db
      .delete(paperNotes)
      .where(
        and(
          inArray(paperNotes.documentId, documentIds),
          sql`(not exists (select 1 from ${memberships} where ${memberships.userId} = ${paperNotes.userId}
                 and ${memberships.companyId} = ${paperNotes.companyId})
               or exists (select 1 from ${paperNoteRetentionNotices} where ${paperNoteRetentionNotices.meetingId} = ${meetingId}
                 and ${paperNoteRetentionNotices.userId} = ${paperNotes.userId} and ${paperNoteRetentionNotices.sentAt} <= ${toldBy}))`,
        ),
      )
      .returning({ id: paperNotes.id });
    deleted += gone.length;
  }
  return deleted;
}

/** Tells the authors (still members of the paper's company) of notes on these papers, once per deciding meeting: one transaction. */
async function tellAuthors({ db }: Deps, papers: readonly PaperDue[], now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const authors = await tx
      .selectDistinct({ documentId: paperNotes.documentId, userId: paperNotes.userId })
      .from(paperNotes)
      .innerJoin(memberships, and(eq(memberships.userId, paperNotes.userId), eq(memberships.companyId, paperNotes.companyId)))
      .where(
        inArray(
          paperNotes.documentId,
          papers.map((paper) => paper.documentId),
        ),
      );
    const paperOf = new Map(papers.map((paper) => [paper.documentId, paper]));
    const pairs = new Map<string, { meetingId: number; userId: number }>();
    for (const author of authors) {
      const meetingId = paperOf.get(author.documentId)!.meetingId;
      pairs.set(`${meetingId}:${author.userId}`, { meetingId, userId: author.userId });
    }
    if (pairs.size === 0) return;
    const fresh = await tx
      .insert(paperNoteRetentionNotices)
      .values([...pairs.values()].map((pair) => ({ ...pair, sentAt: now })))
      .onConflictDoNothing()
      .returning({ meetingId: paperNoteRetentionNotices.meetingId, userId: paperNoteRetentionNotices.userId });
    const events: NotifyInput[] = [];
    for (const meetingId of new Set(fresh.map((notice) => notice.meetingId))) {
      const paper = papers.find((candidate) => candidate.meetingId === meetingId)!;
      // Told late (the setting came after the meeting was due): the week runs from now.
      const when = formatUtcDate(new Date(Math.max(paper.due.getTime(), now.getTime() + retentionNoticeMs)));
      events.push({
        kind: "notesDeletionSoon",
        companyId: paper.companyId,
        recipients: fresh.filter((notice) => notice.meetingId === meetingId).map((notice) => notice.userId),
        title: `Your notes on "${paper.meetingTitle}" will be deleted on ${when}`,
        body: `Your board keeps directors' notes for a set time after a meeting's minutes are approved. Export your notes from the meeting before ${when} to keep a copy.`,
        link: `/meetings/${meetingId}`,
        at: now,
      });
    }
    await notifyEach(tx, events);
  });
}

/** The sweep every `intervalMs` (an hour unless told): notices a week ahead, then the deletions. */
export function startNoteRetentionSweep(deps: Deps & ServiceDeps<"logger">, intervalMs = 60 * 60 * 1000): { stop: () => void } {
  return startSweep(deps.logger, intervalMs, () => sweepNoteRetention(deps), {
    handled: "notes deleted under the boards' retention settings",
    failed: "notes retention sweep failed",
  });
}
