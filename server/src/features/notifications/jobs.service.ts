import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, ne, sql } from "drizzle-orm";
import { votingRoles } from "../../../../shared/permissions";
import { withDefaults } from "../../../../shared/preferences";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import {
  actionItems,
  companies,
  documents,
  jobMarks,
  meetingParticipants,
  meetings,
  memberships,
  resolutionRecusals,
  resolutions,
  userPreferences,
  users,
  votes,
} from "../../db/schema";
import type { DigestCompany, DigestMessage } from "./mail-templates";
import { notify, notifyEach, type NotifyInput } from "./notifications.service";
import { enqueueMail } from "./outbox.service";
import { formatUtc, formatUtcDate } from "../../clock";

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;
/** A meeting's reminder goes out once it starts within this window. */
export const reminderLeadMs = dayMs;

/**
 * Marks keys done once and answers those that were new: what a periodic job does only for these never repeats,
 * whichever instance runs it or how often.
 */
async function markOnce(tx: Queryable, keys: string[], now: Date): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const fresh = await tx
    .insert(jobMarks)
    .values(keys.map((key) => ({ key, createdAt: now })))
    .onConflictDoNothing()
    .returning({ key: jobMarks.key });
  return new Set(fresh.map((row) => row.key));
}

/** Keyed by the start too: a meeting moved after its reminder went out is reminded again before its new time. */
const reminderKey = (meetingId: number, startsAt: Date, userId: number) => `meeting-reminder:${meetingId}:${startsAt.getTime()}:${userId}`;

/**
 * The meeting reminder: every participant of a pending or confirmed meeting that starts within the next 24 hours
 * is told once (Meeting Reminders switch), however often the job runs. One transaction; a fixed number of
 * statements per meeting reminded.
 */
export async function sendMeetingReminders({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const due = await tx
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
      .where(
        and(
          gt(meetings.startsAt, now),
          lte(meetings.startsAt, new Date(now.getTime() + reminderLeadMs)),
          inArray(meetings.status, ["pending", "confirmed"]),
        ),
      )
      .orderBy(asc(meetings.startsAt), asc(meetings.documentId), asc(meetingParticipants.userId));
    const fresh = await markOnce(
      tx,
      due.map((row) => reminderKey(row.id, row.startsAt, row.userId)),
      now,
    );
    const byMeeting = new Map<number, { meeting: (typeof due)[number]; recipients: number[] }>();
    for (const row of due) {
      if (!fresh.has(reminderKey(row.id, row.startsAt, row.userId))) continue;
      const entry = byMeeting.get(row.id) ?? { meeting: row, recipients: [] };
      entry.recipients.push(row.userId);
      byMeeting.set(row.id, entry);
    }
    let told = 0;
    for (const { meeting, recipients } of byMeeting.values()) {
      const hours = Math.max(1, Math.round((meeting.startsAt.getTime() - now.getTime()) / hourMs));
      const ids = await notify(tx, {
        kind: "meetingReminder",
        companyId: meeting.companyId,
        recipients,
        title: `Reminder: ${meeting.title} in ${hours} hour${hours === 1 ? "" : "s"}`,
        body: `"${meeting.title}" starts ${formatUtc(meeting.startsAt)} (${meeting.location}).`,
        link: `/meetings/${meeting.id}`,
        at: now,
      });
      told += ids.length;
    }
    return told;
  });
}

/** Keyed by the due date and the owner too: an item moved to a later date, or handed to someone else, is reminded again. */
const actionItemKey = (itemId: number, dueDate: string, ownerId: number) => `action-item-due:${itemId}:${dueDate}:${ownerId}`;

/**
 * An action item's reminder: on the UTC day before its due date, the owner of every open item is told once
 * (Meeting Reminders switch), while they are still a member of its company. One transaction and a fixed number
 * of statements whatever the number of items.
 */
export async function sendActionItemReminders({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  const tomorrow = new Date(now.getTime() + dayMs).toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: actionItems.id,
        companyId: actionItems.companyId,
        meetingId: actionItems.meetingId,
        meetingTitle: meetings.title,
        title: actionItems.title,
        ownerId: actionItems.ownerId,
        dueDate: actionItems.dueDate,
      })
      .from(actionItems)
      .innerJoin(meetings, eq(meetings.documentId, actionItems.meetingId))
      .innerJoin(memberships, and(eq(memberships.companyId, actionItems.companyId), eq(memberships.userId, actionItems.ownerId)))
      .where(and(eq(actionItems.status, "open"), eq(actionItems.dueDate, tomorrow)))
      .orderBy(asc(actionItems.id));
    const fresh = await markOnce(
      tx,
      due.map((item) => actionItemKey(item.id, item.dueDate, item.ownerId)),
      now,
    );
    const events: NotifyInput[] = due
      .filter((item) => fresh.has(actionItemKey(item.id, item.dueDate, item.ownerId)))
      .map((item) => ({
        kind: "actionItemDue",
        companyId: item.companyId,
        recipients: [item.ownerId],
        title: `Action item due tomorrow: ${item.title}`,
        body: `"${item.title}", from "${item.meetingTitle}", is due ${formatUtcDate(item.dueDate)}.`,
        link: `/meetings/${item.meetingId}`,
        at: now,
      }));
    const told = await notifyEach(tx, events);
    return told.reduce((sum, ids) => sum + ids.length, 0);
  });
}

/** A pending resolution's "vote closing soon" goes out once its deadline falls within this window. */
export const voteClosingLeadMs = dayMs;
const voteClosingKey = (resolutionId: number, userId: number) => `vote-closing:${resolutionId}:${userId}`;

/**
 * "Vote closing soon": every member of the company who may vote on a pending resolution whose deadline falls
 * within the next 24 hours, and has neither voted nor declared a conflict on it, is told once (Resolution Voting
 * switch), however often the job runs. One transaction and a fixed number of statements whatever the number of
 * resolutions or members. The resolutions read are share-locked: a decision (which takes the row lock) waits
 * for this round, and one decided before it is no longer pending here, so nobody is reminded of a decided vote.
 */
export async function sendVoteClosingReminders({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        id: resolutions.id,
        companyId: resolutions.companyId,
        title: resolutions.title,
        deadline: resolutions.deadline,
        userId: memberships.userId,
      })
      .from(resolutions)
      .innerJoin(memberships, and(eq(memberships.companyId, resolutions.companyId), inArray(memberships.role, votingRoles)))
      .leftJoin(votes, and(eq(votes.resolutionId, resolutions.id), eq(votes.userId, memberships.userId)))
      .leftJoin(
        resolutionRecusals,
        and(eq(resolutionRecusals.resolutionId, resolutions.id), eq(resolutionRecusals.userId, memberships.userId)),
      )
      .where(
        and(
          eq(resolutions.status, "pending"),
          isNull(resolutions.decidedAt),
          gt(resolutions.deadline, now),
          lte(resolutions.deadline, new Date(now.getTime() + voteClosingLeadMs)),
          isNull(votes.id),
          isNull(resolutionRecusals.userId),
        ),
      )
      .orderBy(asc(resolutions.deadline), asc(resolutions.id), asc(memberships.userId))
      .for("share", { of: resolutions });
    const fresh = await markOnce(
      tx,
      due.map((row) => voteClosingKey(row.id, row.userId)),
      now,
    );
    const byResolution = new Map<number, { resolution: (typeof due)[number]; recipients: number[] }>();
    for (const row of due) {
      if (!fresh.has(voteClosingKey(row.id, row.userId))) continue;
      const entry = byResolution.get(row.id) ?? { resolution: row, recipients: [] };
      entry.recipients.push(row.userId);
      byResolution.set(row.id, entry);
    }
    const events: NotifyInput[] = [...byResolution.values()].map(({ resolution, recipients }) => {
      const hours = Math.max(1, Math.round((resolution.deadline.getTime() - now.getTime()) / hourMs));
      return {
        kind: "voteClosingSoon",
        companyId: resolution.companyId,
        recipients,
        title: `Voting closes in ${hours} hour${hours === 1 ? "" : "s"}: ${resolution.title}`,
        body: `You have not voted on "${resolution.title}" yet. Voting closes ${formatUtc(resolution.deadline)}.`,
        link: `/resolutions/${resolution.id}`,
        at: now,
      };
    });
    const told = await notifyEach(tx, events);
    return told.reduce((sum, ids) => sum + ids.length, 0);
  });
}

/** The digest's slot: Monday 08:00 UTC. */
export function digestSlotOf(now: Date): Date {
  const slot = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 8, 0, 0, 0));
  const daysSinceMonday = (slot.getUTCDay() + 6) % 7;
  slot.setUTCDate(slot.getUTCDate() - daysSinceMonday);
  if (slot.getTime() > now.getTime()) slot.setUTCDate(slot.getUTCDate() - 7);
  return slot;
}
/** A digest whose slot passed more than this long ago (the server was down) is skipped, not sent late in the week. */
export const digestGraceMs = 12 * hourMs;

interface DigestRecipient {
  userId: number;
  email: string;
  companyIds: number[];
}

/**
 * Pure: each recipient's digest from the week's data, or nothing for a recipient whose companies have nothing
 * to tell. Companies keep the order given.
 */
export function buildDigests(
  weekOf: string,
  recipients: readonly DigestRecipient[],
  byCompany: ReadonlyMap<number, DigestCompany>,
): { userId: number; email: string; message: DigestMessage }[] {
  const out: { userId: number; email: string; message: DigestMessage }[] = [];
  for (const recipient of recipients) {
    const parts = recipient.companyIds
      .map((id) => byCompany.get(id))
      .filter((company): company is DigestCompany => company != null)
      .filter((company) => company.meetings.length + company.openVotes.length + company.newDocuments.length > 0);
    if (parts.length > 0)
      out.push({ userId: recipient.userId, email: recipient.email, message: { type: "digest", weekOf, companies: parts } });
  }
  return out;
}

/**
 * The weekly Email Digest, due at Monday 08:00 UTC: for every user who keeps it on, per company, the meetings of
 * the coming week, the votes still open and the documents added in the past week, queued in the outbox once per
 * user and week. Four reads whatever the number of users or companies; runs nothing outside its slot's grace period.
 */
export async function sendWeeklyDigest({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  const slot = digestSlotOf(now);
  if (now.getTime() - slot.getTime() > digestGraceMs) return 0;
  const weekOf = slot.toISOString().slice(0, 10);
  const weekAhead = new Date(now.getTime() + 7 * dayMs);
  const weekAgo = new Date(now.getTime() - 7 * dayMs);

  return db.transaction(async (tx) => {
    const people = await tx
      .select({
        userId: users.id,
        email: users.email,
        settings: userPreferences.settings,
        companyId: companies.id,
        companyName: companies.name,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(companies, eq(companies.id, memberships.companyId))
      .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
      // E-mail has no session to ask for a second factor: a company that requires one tells its news only in the app.
      .where(eq(companies.requireSecondFactor, false))
      .orderBy(asc(users.id), sql`lower(${companies.name})`, asc(companies.id));
    const recipients = new Map<number, DigestRecipient>();
    const companyNames = new Map<number, string>();
    for (const row of people) {
      if (!withDefaults(row.settings).emailDigest) continue;
      const recipient = recipients.get(row.userId) ?? { userId: row.userId, email: row.email, companyIds: [] };
      recipient.companyIds.push(row.companyId);
      recipients.set(row.userId, recipient);
      companyNames.set(row.companyId, row.companyName);
    }
    const companyIds = [...companyNames.keys()];
    if (companyIds.length === 0) return 0;

    // One after another: a transaction runs one statement at a time.
    const upcoming = await tx
      .select({
        companyId: meetings.companyId,
        id: meetings.documentId,
        title: meetings.title,
        startsAt: meetings.startsAt,
        location: meetings.location,
      })
      .from(meetings)
      .where(
        and(
          inArray(meetings.companyId, companyIds),
          gt(meetings.startsAt, now),
          lte(meetings.startsAt, weekAhead),
          inArray(meetings.status, ["pending", "confirmed"]),
        ),
      )
      .orderBy(asc(meetings.startsAt), asc(meetings.documentId));
    const openVotes = await tx
      .select({ companyId: resolutions.companyId, id: resolutions.id, title: resolutions.title, deadline: resolutions.deadline })
      .from(resolutions)
      .where(and(inArray(resolutions.companyId, companyIds), eq(resolutions.status, "pending"), gt(resolutions.deadline, now)))
      .orderBy(asc(resolutions.deadline), asc(resolutions.id));
    const newDocuments = await tx
      .select({ companyId: documents.companyId, id: documents.id, name: documents.name, createdAt: documents.createdAt })
      .from(documents)
      .where(
        and(
          inArray(documents.companyId, companyIds),
          gte(documents.createdAt, weekAgo),
          lte(documents.createdAt, now),
          ne(documents.category, "Meeting"),
        ),
      )
      .orderBy(desc(documents.createdAt), desc(documents.id));

    const byCompany = new Map<number, DigestCompany>(
      companyIds.map((id) => [id, { name: companyNames.get(id)!, meetings: [], openVotes: [], newDocuments: [] }]),
    );
    for (const m of upcoming)
      byCompany.get(m.companyId)!.meetings.push({ id: m.id, title: m.title, startsAt: m.startsAt.toISOString(), location: m.location });
    for (const v of openVotes) byCompany.get(v.companyId)!.openVotes.push({ id: v.id, title: v.title, deadline: v.deadline.toISOString() });
    for (const d of newDocuments)
      byCompany.get(d.companyId)!.newDocuments.push({ id: d.id, name: d.name, createdAt: d.createdAt.toISOString() });

    const digests = buildDigests(weekOf, [...recipients.values()], byCompany);
    const fresh = await markOnce(
      tx,
      digests.map((digest) => `digest:${weekOf}:${digest.userId}`),
      now,
    );
    const queued = digests.filter((digest) => fresh.has(`digest:${weekOf}:${digest.userId}`));
    await enqueueMail(
      tx,
      queued.map((digest) => ({ userId: digest.userId, companyId: null, to: digest.email, message: digest.message })),
    );
    return queued.length;
  });
}
