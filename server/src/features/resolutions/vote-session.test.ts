import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { secondFactorRequiredCode } from "../../../../shared/api-error";
import { sessions, users, votes } from "../../db/schema";
import { companySecondFactorMessage } from "../../http/guards";
import { enableTotp, withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestContext } from "../../testing/test-context";
import { resolutionFixtures } from "./resolution-fixtures";

// A vote names its caller from the session cache and confirms the session in the database with the vote itself.
// These change a session or a user without the notification that would clear the cache (its trigger is off for
// the change), as a revocation on another instance looks in the moment before its notification arrives here.

const ctx = useTestContext();
const { boardWith, created, vote, details } = resolutionFixtures(ctx);

/** Runs `change` with the trigger that tells every instance about it switched off. */
async function unheard(table: "sessions" | "users", trigger: string, change: () => Promise<unknown>) {
  await ctx.db.execute(sql.raw(`alter table ${table} disable trigger ${trigger}`));
  try {
    await change();
  } finally {
    await ctx.db.execute(sql.raw(`alter table ${table} enable trigger ${trigger}`));
  }
}

const votesOn = (id: number) => ctx.db.select().from(votes).where(eq(votes.resolutionId, id));

describe("a vote and its session", () => {
  it("answers 401 and takes nothing for a session revoked that this instance still holds, whether the vote would decide or not", async () => {
    for (const decisive of [false, true]) {
      const { founder, voters } = await boardWith(1);
      const director = voters[1]!;
      const id = await created(founder);
      // Taken in one call when someone is still to vote after it; in the transaction that decides when it is the last.
      if (decisive) expect((await vote(founder, id, "yes")).status).toBe(200);
      await details(director, id); // the director's session is now in this instance's cache
      await unheard("sessions", "sessions_notify_auth", () => ctx.db.delete(sessions).where(eq(sessions.userId, director.id)));
      const refused = await vote(director, id, "yes");
      expect({ decisive, status: refused.status }).toEqual({ decisive, status: 401 });
      expect((await votesOn(id)).map((row) => row.userId)).toEqual(decisive ? [founder.id] : []);
      expect((await details(founder, id)).status).toBe("pending");
    }
  });

  it("refuses, where the company asks for a second factor, a voter whose factor is gone though this instance still holds them with one", async () => {
    const { founder, company, voters } = await boardWith(2);
    const id = await created(founder);
    const admin = await withSecondFactorSession(ctx, founder);
    const director = voters[1]!;
    await enableTotp(ctx, director);
    const on = await request(ctx.app).put(`/api/companies/${company.id}`).set("Authorization", admin.bearer).send({
      name: "Guarded Board",
      industry: "Technology",
      location: "London, United Kingdom",
      stage: "seed",
      requireSecondFactor: true,
    });
    expect(on.status).toBe(200);
    expect((await vote(director, id, "yes")).status).toBe(200);

    await details(director, id);
    await unheard("users", "users_notify_auth", () => ctx.db.update(users).set({ secondFactor: false }).where(eq(users.id, director.id)));
    const refused = await vote(director, id, "no");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: companySecondFactorMessage, code: secondFactorRequiredCode });
    expect((await votesOn(id)).map((row) => row.vote)).toEqual(["yes"]);
  });
});
