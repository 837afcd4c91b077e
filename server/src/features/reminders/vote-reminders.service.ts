import type { ServiceDeps } from "../../app-deps";
import { formatUtc } from "../../clock";
import { votersYetToVote } from "../resolutions/open-votes.service";
import { dayMs, freshByItem, hourMs, markOnce } from "./job-marks";
import { notifyEach, type NotifyInput } from "../notifications/notifications.service";

/** A pending resolution's "vote closing soon" goes out once its deadline falls within this window. */
export const voteClosingLeadMs = dayMs;
const voteClosingKey = (row: { id: number; userId: number }) => `vote-closing:${row.id}:${row.userId}`;

/**
 * "Vote closing soon": everyone who may vote on a pending resolution whose deadline falls within the next 24 hours,
 * and has not voted on it, is told once (Resolution Voting switch), however often the job runs. One transaction and
 * a fixed number of statements whatever the number of resolutions or members. The resolutions read are
 * share-locked until it commits, so nobody is reminded of a decided vote.
 */
export async function sendVoteClosingReminders({ db, clock }: ServiceDeps<"db" | "clock">): Promise<number> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const due = await votersYetToVote(tx, { after: now, until: new Date(now.getTime() + voteClosingLeadMs) });
    const fresh = await markOnce(tx, due.map(voteClosingKey), now);
    const events: NotifyInput[] = freshByItem(due, fresh, voteClosingKey).map(({ item: resolution, recipients }) => {
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
