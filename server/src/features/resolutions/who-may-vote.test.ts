import { eq } from "drizzle-orm";
import { votingRoles } from "../../../../shared/permissions";
import { companyRoles, type CompanyRole } from "../../../../shared/roles";
import { resolutionRecusals, resolutions, sessions } from "../../db/schema";
import { addMember, createCompany } from "../../testing/factories";
import { useTestContext } from "../../testing/test-context";
import { voteInOneCallTakes } from "../../testing/vote-in-one-call";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { eligibleCount } from "./resolution-decision";
import { membersAsVoters } from "./eligible-voters";
import { votersYetToVote } from "./open-votes.service";

/**
 * Who may vote on a resolution is defined once, in the database; every place that asks must name the same people:
 * the app's list (a certificate's eligible and recused, a show of hands), its count of eligible voters, the vote
 * taken in one call, and those the "vote closing soon" reminder is for (those who may vote and have not). A board with every role, each with and without a declared
 * conflict, and people who belong to another board as well or only, is asked in each of these ways.
 */
const ctx = useTestContext();
const { created } = resolutionFixtures(ctx);
const hour = 60 * 60 * 1000;

interface Person {
  id: number;
  label: string;
  /** Their role on the resolution's board; null for someone of another board only. */
  role: CompanyRole | null;
  recused: boolean;
}

/** The session a person signed up with. */
async function sessionOf(userId: number): Promise<number> {
  const [session] = await ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  return session!.id;
}

describe("who may vote", () => {
  it("is the same people for the app's list and count, the vote taken in one call and the vote-closing reminder", async () => {
    const { founder, company, member } = await ctx.board("Every Role Co");
    const elsewhere = await createCompany(ctx.db, { name: "Elsewhere Co", founderId: founder.id, activate: false });
    const people: Person[] = [{ id: founder.id, label: "founder", role: "founder", recused: false }];
    for (const role of companyRoles)
      for (const recused of [false, true]) {
        if (role === "founder" && !recused) continue;
        const user = await member(role);
        people.push({ id: user.id, label: `${role}${recused ? ", recused" : ""}`, role, recused });
      }
    // Members of another board too (with another role there), and someone of the other board only.
    for (const [role, otherRole] of [
      ["observer", "founder"],
      ["member", "admin"],
    ] as const) {
      const user = await member(role);
      await addMember(ctx.db, elsewhere.id, user.id, otherRole, false);
      people.push({ id: user.id, label: `${role}, ${otherRole} elsewhere`, role, recused: false });
    }
    const outsider = await ctx.signUp();
    await addMember(ctx.db, elsewhere.id, outsider.id, "member");
    people.push({ id: outsider.id, label: "member elsewhere only", role: null, recused: true });

    const id = await created(founder, { deadline: new Date(ctx.clock.now().getTime() + 10 * hour).toISOString() });
    const recusals = people.filter((person) => person.recused);
    await ctx.db
      .insert(resolutionRecusals)
      .values(recusals.map((person) => ({ resolutionId: id, userId: person.id, reason: "A conflict", createdAt: ctx.clock.now() })));

    const labels = (ids: Iterable<number>) => people.filter((person) => [...ids].includes(person.id)).map((person) => person.label);
    // What the permissions say: a role that votes, and no conflict declared.
    const expected = people.filter((person) => person.role !== null && votingRoles.includes(person.role) && !person.recused);
    const expectedRecused = people.filter((person) => person.role !== null && votingRoles.includes(person.role) && person.recused);

    const listed = await membersAsVoters(ctx.db, { id, companyId: company.id });
    const [counted] = await ctx.db.select({ eligible: eligibleCount }).from(resolutions).where(eq(resolutions.id, id));
    const taken: number[] = [];
    for (const person of people)
      if (await voteInOneCallTakes(ctx, { resolutionId: id, userId: person.id, sessionId: await sessionOf(person.id) }))
        taken.push(person.id);
    const now = ctx.clock.now();
    const reminded = (
      await ctx.db.transaction((tx) => votersYetToVote(tx, { after: now, until: new Date(now.getTime() + 24 * hour) }))
    ).filter((row) => row.id === id);

    const want = labels(expected.map((person) => person.id));
    expect({
      list: labels(listed.filter((row) => row.mayVote).map((row) => row.userId)),
      recused: labels(listed.filter((row) => row.recused).map((row) => row.userId)),
      count: Number(counted!.eligible),
      voteFunction: labels(taken),
      reminder: labels(reminded.map((row) => row.userId)),
    }).toEqual({
      list: want,
      recused: labels(expectedRecused.map((person) => person.id)),
      count: want.length,
      voteFunction: want,
      reminder: want,
    });
    // The board has someone of every kind, so each way above was asked about each.
    expect(want).toEqual(["founder", "admin", "member", "member, admin elsewhere"]);
    expect(labels(expectedRecused.map((person) => person.id))).toEqual(["founder, recused", "admin, recused", "member, recused"]);
  });
});
