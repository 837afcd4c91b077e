// What the event stream announces of resolutions, read for many at once.
import { inArray } from "drizzle-orm";
import type { Resolution } from "../../../../shared/resolutions";
import type { ServiceDeps } from "../../app-deps";
import { resolutions } from "../../db/schema";
import { tallyOf } from "./resolution-decision";

/** What the event stream announces of a resolution: its company, status and counts, for many at once in one query. */
export interface LiveResolutionFigures {
  id: number;
  companyId: number;
  status: Resolution["status"];
  yes: number;
  no: number;
  abstain: number;
}

export async function liveResolutionFigures({ db }: ServiceDeps<"db">, ids: readonly number[]): Promise<LiveResolutionFigures[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: resolutions.id, companyId: resolutions.companyId, status: resolutions.status, tally: tallyOf })
    .from(resolutions)
    .where(inArray(resolutions.id, [...ids]));
  return rows.map(({ tally, ...row }) => ({ ...row, yes: Number(tally.yes), no: Number(tally.no), abstain: Number(tally.abstain) }));
}
