import { eq } from "drizzle-orm";
import request from "supertest";
import { mailOutbox, resolutions } from "../../db/schema";
import { addMember } from "../../testing/factories";
import { reminderFixtures } from "../../testing/reminder-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { sendVoteClosingReminders, voteClosingLeadMs } from "./vote-reminders.service";

/**
 * "Vote closing soon": the worker's round tells each member who may vote and has not, once, when a pending
 * resolution's deadline comes within 24 hours. Everything runs on the injected clock.
 */
const ctx = useTestContext();
const { later, workerRound, bellOf, toldAmong } = reminderFixtures(ctx);

const api = () => request(ctx.app);
const hour = 60 * 60 * 1000;

async function createResolution(creator: SignedUp, title: string, deadline: Date): Promise<number> {
  const response = await api()
    .post("/api/resolutions")
    .set("Authorization", creator.bearer)
    .send({ title, description: "Please decide", type: "Ordinary", deadline: deadline.toISOString(), documentIds: [], status: "pending" });
  expect(response.status).toBe(201);
  return (response.body as { id: number }).id;
}

const remindersOf = (userId: number) => bellOf(userId, "voteClosingSoon");

async function reminderMailsOf(userId: number) {
  const rows = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.userId, userId));
  return rows.filter((row) => (row.message as { kind?: string }).kind === "voteClosingSoon");
}

describe("vote closing soon", () => {
  it("goes out in the round that finds the deadline within 24 hours, not a millisecond before, with a link to the resolution, in the bell and the outbox", async () => {
    const { founder, member } = await ctx.board("Boundary Co");
    const voter = await member();
    const deadline = new Date(ctx.clock.now().getTime() + 30 * hour);
    const id = await createResolution(founder, "Approve the budget", deadline);
    const dayBefore = deadline.getTime() - voteClosingLeadMs - ctx.clock.now().getTime();

    await later(dayBefore - 1, workerRound); // 24 h and 1 ms ahead: too early
    expect(await remindersOf(voter.id)).toEqual([]);

    await later(dayBefore, workerRound); // exactly 24 h ahead
    expect(await remindersOf(voter.id)).toEqual([
      {
        title: "Voting closes in 24 hours: Approve the budget",
        link: `/resolutions/${id}`,
        body: 'You have not voted on "Approve the budget" yet. Voting closes 2 Jun 2026, 15:00 UTC.',
      },
    ]);
    const [mail] = await reminderMailsOf(voter.id);
    expect(mail).toMatchObject({
      toAddress: voter.email,
      message: {
        type: "notification",
        kind: "voteClosingSoon",
        title: "Voting closes in 24 hours: Approve the budget",
        link: `/resolutions/${id}`,
      },
    });
    // The round drained the outbox too (no e-mail service here: kept as not sent).
    expect(mail!.status).toBe("not_sent");
    // The one who proposed it has not voted either.
    expect(await remindersOf(founder.id)).toHaveLength(1);
  });

  it("passes over whoever voted, declared a conflict, only observes, or switched Resolution Voting off", async () => {
    const { founder, member } = await ctx.board("Skip Co");
    const voted = await member();
    const recused = await member("admin");
    const observer = await member("observer");
    const switchedOff = await member();
    const waiting = await member();
    const id = await createResolution(founder, "Skip some", new Date(ctx.clock.now().getTime() + 10 * hour));
    await api().post(`/api/resolutions/${id}/vote`).set("Authorization", voted.bearer).send({ vote: "yes" }).expect(200);
    await api()
      .post(`/api/resolutions/${id}/conflict`)
      .set("Authorization", recused.bearer)
      .send({ reason: "I am the supplier" })
      .expect((response) => expect(response.status).toBeLessThan(300));
    await api()
      .put(`/api/users/${switchedOff.id}/preferences`)
      .set("Authorization", switchedOff.bearer)
      .send({ resolutionVoting: false })
      .expect(200);

    expect(await sendVoteClosingReminders(ctx.deps)).toBe(2);
    expect((await remindersOf(waiting.id)).map((row) => row.title)).toEqual(["Voting closes in 10 hours: Skip some"]);
    expect(await remindersOf(founder.id)).toHaveLength(1);
    for (const person of [voted, recused, observer, switchedOff]) {
      expect(await remindersOf(person.id)).toEqual([]);
      expect(await reminderMailsOf(person.id)).toEqual([]);
    }
  });

  it("never twice: a second round, however many, tells nobody again, even once the switch is back on", async () => {
    const { founder, member } = await ctx.board("Once Co");
    const voter = await member();
    const toggler = await member();
    await api()
      .put(`/api/users/${toggler.id}/preferences`)
      .set("Authorization", toggler.bearer)
      .send({ resolutionVoting: false })
      .expect(200);
    await createResolution(founder, "Only once", new Date(ctx.clock.now().getTime() + 20 * hour));

    expect(await sendVoteClosingReminders(ctx.deps)).toBe(2);
    await workerRound();
    await later(hour, workerRound);
    await api()
      .put(`/api/users/${toggler.id}/preferences`)
      .set("Authorization", toggler.bearer)
      .send({ resolutionVoting: true })
      .expect(200);
    expect(await later(2 * hour, () => sendVoteClosingReminders(ctx.deps))).toBe(0);

    expect(await remindersOf(voter.id)).toHaveLength(1);
    expect(await reminderMailsOf(voter.id)).toHaveLength(1);
    expect(await remindersOf(toggler.id)).toEqual([]);
  });

  it("tells nobody about a decided resolution, nor one whose deadline has passed", async () => {
    const { founder, company, member } = await ctx.board("Decided Co");
    const voter = await member();
    const id = await createResolution(founder, "Already decided", new Date(ctx.clock.now().getTime() + 5 * hour));
    for (const person of [founder, voter])
      await api().post(`/api/resolutions/${id}/vote`).set("Authorization", person.bearer).send({ vote: "yes" }).expect(200);
    const [row] = await ctx.db.select({ status: resolutions.status }).from(resolutions).where(eq(resolutions.id, id));
    expect(row!.status).toBe("approved");
    // Someone who joins afterwards has not voted on it, and still hears nothing.
    const newcomer = await ctx.signUp();
    await addMember(ctx.db, company.id, newcomer.id, "member");

    // A deadline passed before any round ran (deciding it is the resolutions' own timer): nothing either.
    const { founder: expiredFounder } = await ctx.board("Past Deadline Co");
    await createResolution(expiredFounder, "Past its deadline", new Date(ctx.clock.now().getTime() + hour));

    await later(2 * hour, () => sendVoteClosingReminders(ctx.deps));
    expect(await remindersOf(newcomer.id)).toEqual([]);
    expect(await remindersOf(expiredFounder.id)).toEqual([]);
  });

  it("costs the same number of statements for 1 resolution and 1 member as for 4 resolutions and 6 members", async () => {
    const small = await ctx.board("Small Co");
    await createResolution(small.founder, "Small", new Date(ctx.clock.now().getTime() + 60 * hour));
    const big = await ctx.board("Big Co");
    const people = [big.founder];
    for (let index = 0; index < 5; index += 1) people.push(await big.member());
    const ids = [];
    for (let index = 0; index < 4; index += 1)
      ids.push(await createResolution(big.founder, `Big ${index}`, new Date(ctx.clock.now().getTime() + (65 + index) * hour)));

    // Both rounds tell someone: Small's voter 38 h on, then Big's six people about four resolutions 46 h on.
    const smallRound = await later(38 * hour, () => ctx.countQueries(() => sendVoteClosingReminders(ctx.deps)));
    const bigRound = await later(46 * hour, () => ctx.countQueries(() => sendVoteClosingReminders(ctx.deps)));
    expect(bigRound).toBe(smallRound);
    const told = await toldAmong(
      "voteClosingSoon",
      people.map((person) => person.id),
    );
    expect(told).toHaveLength(4 * 6);
  });
});
