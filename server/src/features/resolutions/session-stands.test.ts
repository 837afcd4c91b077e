import { eq, sql } from "drizzle-orm";
import { sessions, users } from "../../db/schema";
import { createSession, resolveSession, sessionIdleLimitMs } from "../../http/session";
import { useTestContext } from "../../testing/test-context";
import { voteInOneCallTakes } from "../../testing/vote-in-one-call";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { listSessions } from "../account/account.service";

/**
 * Whether a session stands is defined once, in the database: resolving a token, listing a user's sessions and the
 * vote taken in one call must agree on every session, at the very edges of its expiry and its idle limit.
 */
const ctx = useTestContext();
const { boardWith, created } = resolutionFixtures(ctx);

describe("whether a session stands", () => {
  it("is the same answer for resolving its token, listing the user's sessions and the vote taken in one call", async () => {
    const { founder, voters } = await boardWith(2);
    const voter = voters[1]!;
    const id = await created(founder);
    const [user] = await ctx.db.select().from(users).where(eq(users.id, voter.id));
    const now = ctx.clock.now().getTime();
    const idleSince = now - sessionIdleLimitMs;
    const cases = {
      "in use": { expiresAt: now + 60_000, lastUsedAt: now - 60_000, stands: true },
      "expires a millisecond from now": { expiresAt: now + 1, lastUsedAt: now, stands: true },
      "expires now": { expiresAt: now, lastUsedAt: now, stands: false },
      "expired a millisecond ago": { expiresAt: now - 1, lastUsedAt: now - 60_000, stands: false },
      "idle a millisecond short of the limit": { expiresAt: now + 60_000, lastUsedAt: idleSince + 1, stands: true },
      "idle for exactly the limit": { expiresAt: now + 60_000, lastUsedAt: idleSince, stands: false },
      "idle past the limit": { expiresAt: now + 60_000, lastUsedAt: idleSince - 1, stands: false },
    };
    for (const [name, { expiresAt, lastUsedAt, stands }] of Object.entries(cases)) {
      const token = await createSession(ctx.db, ctx.clock, voter.id, null, { maxPerUser: 100 });
      const [session] = await ctx.db
        .select({ id: sessions.id })
        .from(sessions)
        .where(eq(sessions.userId, voter.id))
        .orderBy(sql`${sessions.id} desc`)
        .limit(1);
      await ctx.db
        .update(sessions)
        .set({ expiresAt: new Date(expiresAt), lastUsedAt: new Date(lastUsedAt) })
        .where(eq(sessions.id, session!.id));

      const voteFunction = await voteInOneCallTakes(ctx, { resolutionId: id, userId: voter.id, sessionId: session!.id });
      const listed = (await listSessions(ctx.deps, { user: user!, sessionId: session!.id })).some((row) => row.id === session!.id);
      // Last: resolving a standing session touches it, and one that does not stand is removed.
      const resolved = (await resolveSession(ctx.db, ctx.clock, token)) !== null;
      expect({ name, voteFunction, listed, resolved }).toEqual({ name, voteFunction: stands, listed: stands, resolved: stands });
    }
  });
});
