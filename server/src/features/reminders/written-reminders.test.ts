import { eq } from "drizzle-orm";
import { notifications, writtenSignatureReminders } from "../../db/schema";
import { reminderFixtures } from "../../testing/reminder-fixtures";
import { useMailingContext } from "../../testing/test-smtp";
import { decideWrittenResolution, insertRecusal, insertSignature, insertWrittenResolution } from "../../testing/written-rows";
import { sendVoteClosingReminders } from "./vote-reminders.service";
import { sendWrittenSignatureReminders } from "./written-reminders.service";

/**
 * Reminders to sign a written resolution: each eligible director who has not signed is told 3 days and 1 day before
 * it lapses, once each, in the bell and by e-mail (read from a real SMTP server). Everything runs on the injected clock.
 */
const { ctx, smtp, appUrl, api } = await useMailingContext();
const { later, workerRound, bellOf: bellOfKind, toldAmong } = reminderFixtures(ctx);

const hour = 60 * 60 * 1000;
const day = 24 * hour;
const at = (ms: number) => new Date(ctx.clock.now().getTime() + ms);

/** A written resolution the board's founder proposed, lapsing `ms` from now. */
const proposeLapsingIn = (board: { company: { id: number }; founder: { id: number } }, ms: number, title?: string) =>
  insertWrittenResolution(ctx.db, { companyId: board.company.id, createdBy: board.founder.id, lapsesAt: at(ms), title });

/** The reminders to sign that reached this address since the last call (the round's digest is not this test's). */
async function lapseMails(to?: string) {
  return (await smtp.deliver(ctx, to)).filter((mail) => mail.subject.includes("Lapses in"));
}

const bellOf = (userId: number) => bellOfKind(userId, "writtenSignatureDue");

async function marksOf(resolutionId: number) {
  return ctx.db
    .select({ userId: writtenSignatureReminders.userId, kind: writtenSignatureReminders.kind })
    .from(writtenSignatureReminders)
    .where(eq(writtenSignatureReminders.resolutionId, resolutionId))
    .orderBy(writtenSignatureReminders.userId, writtenSignatureReminders.kind);
}

describe("reminders to sign a written resolution", () => {
  it("go out 3 days and 1 day before the lapse, not a millisecond early, by the bell and by e-mail with a link to it", async () => {
    const { founder, company, member } = await ctx.board("Lapse Co");
    const director = await member();
    const lapsesAt = at(10 * day);
    const id = await insertWrittenResolution(ctx.db, { companyId: company.id, createdBy: founder.id, lapsesAt, title: "Open a branch" });
    await insertSignature(ctx.db, id, founder.id, ctx.clock.now());
    const untilLapse = lapsesAt.getTime() - ctx.clock.now().getTime();

    await later(untilLapse - 3 * day - 1, workerRound);
    expect(await bellOf(director.id)).toEqual([]);
    expect(await lapseMails(director.email)).toEqual([]);

    await later(untilLapse - 3 * day, workerRound);
    expect(await bellOf(director.id)).toEqual([
      {
        title: "Lapses in 3 days: Open a branch",
        body: 'You have not signed the written resolution "Open a branch" yet. It lapses 11 Jun 2026, 09:00 UTC.',
        link: `/resolutions/${id}`,
      },
    ]);
    const [mail, ...more] = await lapseMails(director.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toContain("Lapses in 3 days: Open a branch");
    expect(mail!.text).toContain(`${appUrl}/resolutions/${id}`);

    // Later rounds inside the 3 days tell nobody again; the last day's reminder comes once, at 24 hours.
    await later(untilLapse - 2 * day, workerRound);
    await later(untilLapse - day - 1, workerRound);
    expect(await bellOf(director.id)).toHaveLength(1);
    await later(untilLapse - day, workerRound);
    await later(untilLapse - hour, workerRound);
    expect((await bellOf(director.id)).map((row) => row.title)).toEqual([
      "Lapses in 3 days: Open a branch",
      "Lapses in 1 day: Open a branch",
    ]);
    const lastDay = await lapseMails(director.email);
    expect(lastDay.map((arrived) => arrived.subject)).toEqual([expect.stringContaining("Lapses in 1 day: Open a branch")]);
    expect(lastDay[0]!.text).toContain(`${appUrl}/resolutions/${id}`);

    // The founder signed: never reminded. Each reminder is recorded once.
    expect(await ctx.db.select().from(notifications).where(eq(notifications.userId, founder.id))).toEqual([]);
    expect(await marksOf(id)).toEqual([
      { userId: director.id, kind: "lapse-1-day" },
      { userId: director.id, kind: "lapse-3-days" },
    ]);
  });

  it("passes over whoever signed, is recused, only observes, or switched Resolution Voting off; a director first found in the last day gets the last day's only", async () => {
    const board = await ctx.board("Skip Co");
    const { founder, member } = board;
    const signed = await member();
    const recused = await member("admin");
    const observer = await member("observer");
    const switchedOff = await member();
    const waiting = await member();
    const id = await proposeLapsingIn(board, 20 * hour, "Skip some");
    await insertSignature(ctx.db, id, signed.id, ctx.clock.now(), "disagree");
    await insertRecusal(ctx.db, id, recused.id, ctx.clock.now());
    await api()
      .put(`/api/users/${switchedOff.id}/preferences`)
      .set("Authorization", switchedOff.bearer)
      .send({ resolutionVoting: false })
      .expect(200);

    expect(await sendWrittenSignatureReminders(ctx.deps)).toBe(2);
    expect((await bellOf(waiting.id)).map((row) => row.title)).toEqual(["Lapses in 20 hours: Skip some"]);
    expect(await bellOf(founder.id)).toHaveLength(1);
    for (const person of [signed, recused, observer, switchedOff]) expect(await bellOf(person.id)).toEqual([]);
    const mails = await lapseMails();
    expect(mails.flatMap((mail) => mail.to).sort()).toEqual([founder.email, waiting.email].sort());
    // The switch silences the notice, not the record: turned back on, nothing comes late.
    expect((await marksOf(id)).map((mark) => mark.kind)).toEqual(["lapse-1-day", "lapse-1-day", "lapse-1-day"]);
    await api()
      .put(`/api/users/${switchedOff.id}/preferences`)
      .set("Authorization", switchedOff.bearer)
      .send({ resolutionVoting: true })
      .expect(200);
    expect(await later(hour, () => sendWrittenSignatureReminders(ctx.deps))).toBe(0);
  });

  it("tells nobody about a decided written resolution nor one lapsed, and a written one never gets the vote's reminder", async () => {
    const board = await ctx.board("Decided Co");
    const director = await board.member();
    const decided = await proposeLapsingIn(board, 2 * day, "Decided");
    await decideWrittenResolution(ctx.db, decided, "approved", ctx.clock.now());
    await proposeLapsingIn(board, hour, "Lapsed");

    expect(await sendVoteClosingReminders(ctx.deps)).toBe(0);
    expect(await later(2 * hour, () => sendWrittenSignatureReminders(ctx.deps))).toBe(0);
    expect(await bellOf(director.id)).toEqual([]);
    expect(await ctx.db.select().from(notifications).where(eq(notifications.userId, director.id))).toEqual([]);
  });

  it("costs the same number of statements for 1 resolution and 1 director as for 4 resolutions and 6 directors", async () => {
    const small = await ctx.board("Small Co");
    await proposeLapsingIn(small, 30 * day);
    const big = await ctx.board("Big Co");
    const people = [big.founder];
    for (let index = 0; index < 5; index += 1) people.push(await big.member());
    for (let index = 0; index < 4; index += 1) await proposeLapsingIn(big, 40 * day + index * hour);

    const smallRound = await later(28 * day, () => ctx.countQueries(() => sendWrittenSignatureReminders(ctx.deps)));
    const bigRound = await later(38 * day, () => ctx.countQueries(() => sendWrittenSignatureReminders(ctx.deps)));
    expect(bigRound).toBe(smallRound);
    const told = await toldAmong(
      "writtenSignatureDue",
      people.map((person) => person.id),
    );
    expect(told).toHaveLength(4 * 6);
    await smtp.deliver(ctx);
  });
});
