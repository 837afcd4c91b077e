import type { ServiceDeps } from "../../app-deps";
import { membersOfCompanies } from "../companies/company-members.service";
import { documentsAddedBetween } from "../documents/documents-added.service";
import { meetingsStarting } from "../meetings/upcoming-meetings.service";
import { openResolutionsOf } from "../resolutions/open-votes.service";
import { dayMs, hourMs, markOnce } from "./job-marks";
import { preferencesOf } from "../notifications/notifications.service";
import { enqueueMail, type DigestCompany, type DigestMessage } from "../notifications/outbox.service";

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
 * user and week. Five reads whatever the number of users or companies; runs nothing outside its slot's grace period.
 */
export async function sendWeeklyDigest({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  const slot = digestSlotOf(now);
  if (now.getTime() - slot.getTime() > digestGraceMs) return 0;
  const weekOf = slot.toISOString().slice(0, 10);

  return db.transaction(async (tx) => {
    // E-mail has no session to ask for a second factor: a company that requires one tells its news only in the app.
    const people = await membersOfCompanies(tx, { requiringSecondFactor: false });
    if (people.length === 0) return 0;
    const preferences = await preferencesOf(
      tx,
      people.map((row) => row.userId),
    );
    const recipients = new Map<number, DigestRecipient>();
    const companyNames = new Map<number, string>();
    for (const row of people) {
      if (!preferences.get(row.userId)?.emailDigest) continue;
      const recipient = recipients.get(row.userId) ?? { userId: row.userId, email: row.email, companyIds: [] };
      recipient.companyIds.push(row.companyId);
      recipients.set(row.userId, recipient);
      companyNames.set(row.companyId, row.companyName);
    }
    const companyIds = [...companyNames.keys()];
    if (companyIds.length === 0) return 0;

    // One after another: a transaction runs one statement at a time.
    const upcoming = await meetingsStarting(tx, companyIds, { after: now, until: new Date(now.getTime() + 7 * dayMs) });
    const openVotes = await openResolutionsOf(tx, companyIds, now);
    const newDocuments = await documentsAddedBetween(tx, companyIds, { since: new Date(now.getTime() - 7 * dayMs), until: now });

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
