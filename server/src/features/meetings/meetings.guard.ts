import type { Request } from "express";
import { and, eq, ne } from "drizzle-orm";
import type { ServiceDeps } from "../../app-deps";
import { meetings } from "../../db/schema";
import { idParam } from "../../http/validate";

/** The company of a meeting (drafts included), for the "thing" guard; null when there is none. */
async function meetingCompanyOf({ db }: ServiceDeps<"db">, meetingId: number): Promise<number | null> {
  const [row] = await db.select({ companyId: meetings.companyId }).from(meetings).where(eq(meetings.documentId, meetingId));
  return row?.companyId ?? null;
}

/** The guard options of a route on one meeting (`:id`): its company is the meeting's. */
export function meetingCompanyGuard(deps: ServiceDeps<"db">): { companyOf: (req: Request) => Promise<number | null> } {
  return { companyOf: (req: Request) => meetingCompanyOf(deps, idParam(req.params.id)) };
}

/**
 * The guard options of a route on one scheduled meeting (`:id`): a draft is its creator's alone until scheduled, and
 * is not found here, as by the meeting's other routes.
 */
export function scheduledMeetingGuard({ db }: ServiceDeps<"db">): { companyOf: (req: Request) => Promise<number | null> } {
  return {
    companyOf: async (req: Request) => {
      const [row] = await db
        .select({ companyId: meetings.companyId })
        .from(meetings)
        .where(and(eq(meetings.documentId, idParam(req.params.id)), ne(meetings.status, "draft")));
      return row?.companyId ?? null;
    },
  };
}
