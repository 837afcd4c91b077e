import type { ComplianceMeeting } from "../features/compliance/compliance-rules";

// What the compliance rule tests share: moments and lengths of time, and a meeting as the rules see it.

export const at = (iso: string) => new Date(iso);
const hours = (count: number) => count * 60 * 60 * 1000;
const days = (count: number) => count * 24 * hours(1);

/** A meeting of two hours starting at `start`, scheduled `noticeDays` before it. */
export function meeting(start: string, fields: Partial<ComplianceMeeting> & { noticeDays?: number } = {}): ComplianceMeeting {
  const startsAt = at(start);
  const { noticeDays = 30, ...rest } = fields;
  return {
    title: "Board Meeting",
    startsAt,
    endsAt: new Date(startsAt.getTime() + hours(2)),
    status: "confirmed",
    scheduledAt: new Date(startsAt.getTime() - days(noticeDays)),
    ...rest,
  };
}
