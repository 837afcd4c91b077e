import { sql } from "drizzle-orm";
import { sessionBounds } from "../http/session";
import type { TestContext } from "./test-context";

/**
 * Whether the database's vote in one call would take this vote now, undone afterwards: the caller leaves someone
 * still to vote, so only who votes and the session they vote with decide it. The roles it is still handed by the app
 * are left out: it reads who may vote from the database.
 */
export async function voteInOneCallTakes(
  ctx: Pick<TestContext, "db" | "clock">,
  vote: { resolutionId: number; userId: number; sessionId: number },
): Promise<boolean> {
  const { at, idleSince } = sessionBounds(ctx.clock.now());
  const undo = new Error("undo");
  let taken: unknown;
  await ctx.db
    .transaction(async (tx) => {
      const result = await tx.execute(
        sql`select quorum_vote_if_clear(${vote.resolutionId}::integer, ${vote.userId}::integer, ${vote.sessionId}::integer, ${idleSince}::timestamptz, 'yes', null, ${at}::timestamptz, null::text[]) as tally`,
      );
      taken = (result as unknown as { rows: { tally: unknown }[] }).rows[0]!.tally;
      throw undo;
    })
    .catch((error: unknown) => {
      if (error !== undo) throw error;
    });
  return taken != null;
}
