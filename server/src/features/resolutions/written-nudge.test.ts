import { and, eq } from "drizzle-orm";
import { auditEvents, writtenSignatureReminders } from "../../db/schema";
import { reminderFixtures } from "../../testing/reminder-fixtures";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import type { SignedUp } from "../../testing/test-context";
import { useMailingContext } from "../../testing/test-smtp";
import { decideWrittenResolution, insertRecusal, insertSignature, insertWrittenResolution } from "../../testing/written-rows";
import { nudgeIntervalMs } from "./written-nudge.service";

/**
 * `POST /api/resolutions/:id/nudge`: the proposer, a founder or an admin reminds an eligible director who has not
 * signed a pending written resolution, at most once a day each; the director gets the bell and an e-mail (read from a
 * real SMTP server) with a link to it.
 */
const { ctx, smtp, appUrl, api } = await useMailingContext();
const { bellOf: bellOfKind } = reminderFixtures(ctx);

const day = 24 * 60 * 60 * 1000;
const nudge = (by: SignedUp, id: number, userId: number) =>
  api().post(`/api/resolutions/${id}/nudge`).set("Authorization", by.bearer).send({ userId });

/** A board with a member who proposed a written resolution lapsing in a week, and two directors yet to sign it. */
async function proposed(name: string) {
  const { founder, company, member } = await ctx.board(name, { firstName: "Fay", lastName: "Founder" });
  const proposer = await member("member", { firstName: "Pat", lastName: "Proposer" });
  const admin = await member("admin");
  const first = await member();
  const second = await member();
  const lapsesAt = new Date(ctx.clock.now().getTime() + 7 * day);
  const id = await insertWrittenResolution(ctx.db, { companyId: company.id, createdBy: proposer.id, lapsesAt, title: "Lease the office" });
  return { founder, company, member, proposer, admin, first, second, id };
}

const bellOf = (userId: number) => bellOfKind(userId, "writtenSignatureNudge");

async function nudgesOf(resolutionId: number) {
  return ctx.db
    .select({ userId: writtenSignatureReminders.userId, sentAt: writtenSignatureReminders.sentAt })
    .from(writtenSignatureReminders)
    .where(and(eq(writtenSignatureReminders.resolutionId, resolutionId), eq(writtenSignatureReminders.kind, "nudge")))
    .orderBy(writtenSignatureReminders.userId);
}

describe("nudging a director to sign", () => {
  it("tells the director by the bell and by e-mail with a link to the resolution, records it and audits it", async () => {
    const { proposer, first, company, id } = await proposed("Nudge Co");

    const response = await nudge(proposer, id, first.id);
    expect(response.status).toBe(204);

    expect(await bellOf(first.id)).toEqual([
      {
        title: "Please sign: Lease the office",
        body: 'Pat Proposer asks you to sign the written resolution "Lease the office". It lapses 8 Jun 2026, 09:00 UTC.',
        link: `/resolutions/${id}`,
      },
    ]);
    const mails = await smtp.deliver(ctx);
    expect(mails.map((mail) => mail.to)).toEqual([[first.email]]);
    expect(mails[0]!.subject).toContain("Please sign: Lease the office");
    expect(mails[0]!.text).toContain(`${appUrl}/resolutions/${id}`);
    expect(await nudgesOf(id)).toEqual([{ userId: first.id, sentAt: ctx.clock.now() }]);
    const events = await ctx.db
      .select({ actorId: auditEvents.actorId, targetId: auditEvents.targetId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "resolution.signer_nudged")));
    expect(events).toEqual([{ actorId: proposer.id, targetId: String(id), details: { userId: first.id } }]);
  });

  it("at most once a day per director: a second nudge within 24 hours is refused, another director's is not, and a day later it goes again", async () => {
    const { proposer, founder, first, second, id } = await proposed("Daily Co");
    await nudge(proposer, id, first.id).expect(204);
    ctx.clock.advance(day - 1);
    try {
      const again = await nudge(founder, id, first.id);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe("Already nudged today");
      await nudge(founder, id, second.id).expect(204);
      ctx.clock.advance(1);
      await nudge(founder, id, first.id).expect(204);
      expect(await bellOf(first.id)).toHaveLength(2);
      expect((await nudgesOf(id)).find((row) => row.userId === first.id)?.sentAt).toEqual(ctx.clock.now());
      expect(nudgeIntervalMs).toBe(day);
    } finally {
      ctx.clock.advance(-day);
    }
    await smtp.deliver(ctx);
  });

  it("is for the proposer, founders and admins: another member or an observer gets 403, another company's founder 404", async () => {
    const { founder, admin, member, first, second, id } = await proposed("Who Co");
    const observer = await member("observer");
    const outsider = await ctx.board("Elsewhere Co");

    for (const by of [second, observer]) {
      const refused = await nudge(by, id, first.id);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe("Only the proposer, founders and admins can nudge a director");
    }
    expect((await nudge(outsider.founder, id, first.id)).status).toBe(404);
    expect((await nudge(founder, 2_000_000, first.id)).status).toBe(404);
    expect(await bellOf(first.id)).toEqual([]);
    await nudge(admin, id, first.id).expect(204);
    await nudge(founder, id, second.id).expect(204);
    await smtp.deliver(ctx);
  });

  it("only an eligible director who has not signed a pending written resolution: 409 otherwise, and nothing is sent", async () => {
    const { founder, company, member, proposer, first, second, id } = await proposed("Refusals Co");
    const observer = await member("observer");
    const stranger = await ctx.signUp();
    await insertSignature(ctx.db, id, first.id, ctx.clock.now());
    await insertRecusal(ctx.db, id, second.id, ctx.clock.now());
    const expectRefused = async (resolutionId: number, userId: number, error: string) => {
      const response = await nudge(founder, resolutionId, userId);
      expect(response.status).toBe(409);
      expect(response.body.message).toBe(error);
    };
    await expectRefused(id, first.id, "This director has already signed");
    await expectRefused(id, second.id, "Only an eligible director can be nudged");
    await expectRefused(id, observer.id, "Only an eligible director can be nudged");
    await expectRefused(id, stranger.id, "Only an eligible director can be nudged");
    await expectRefused(id, founder.id, "You cannot nudge yourself: sign it instead");

    const vote = await resolutionFixtures(ctx).created(founder);
    await expectRefused(vote, proposer.id, "Only a written resolution's signers can be nudged");
    const decided = await insertWrittenResolution(ctx.db, {
      companyId: company.id,
      createdBy: founder.id,
      lapsesAt: new Date(ctx.clock.now().getTime() + day),
    });
    await decideWrittenResolution(ctx.db, decided, "rejected", ctx.clock.now());
    await expectRefused(decided, proposer.id, "This resolution has already been decided");
    const lapsed = await insertWrittenResolution(ctx.db, { companyId: company.id, createdBy: founder.id, lapsesAt: ctx.clock.now() });
    await expectRefused(lapsed, proposer.id, "This resolution has lapsed");

    expect((await nudge(founder, id, 0)).status).toBe(400);
    expect(await nudgesOf(id)).toEqual([]);
    for (const person of [founder, first, second, observer, stranger, proposer]) expect(await bellOf(person.id)).toEqual([]);
    // (The vote's proposal was mailed to the board; no nudge was.)
    expect((await smtp.deliver(ctx)).filter((mail) => mail.subject.includes("Please sign"))).toEqual([]);
  });

  it("respects the director's Resolution Voting switch (recorded, but neither bell nor e-mail)", async () => {
    const { founder, first, id } = await proposed("Quiet Co");
    await api().put(`/api/users/${first.id}/preferences`).set("Authorization", first.bearer).send({ resolutionVoting: false }).expect(200);
    await nudge(founder, id, first.id).expect(204);
    expect(await bellOf(first.id)).toEqual([]);
    expect(await smtp.deliver(ctx)).toEqual([]);
    expect(await nudgesOf(id)).toHaveLength(1);
  });
});
