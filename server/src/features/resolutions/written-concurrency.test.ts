import { and, asc, eq } from "drizzle-orm";
import { auditEvents, writtenSignatures } from "../../db/schema";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { useMailingContext } from "../../testing/test-smtp";
import { writtenFixtures } from "../../testing/written-fixtures";
import { decideDue } from "./resolution-decision";

// Signatures racing each other and the lapse, on real Postgres: decided once, under the resolution's row lock.

const { ctx, appUrl } = await useMailingContext();
const { boardWith, details } = resolutionFixtures(ctx);
const written = writtenFixtures(ctx, appUrl);
const day = 24 * 60 * 60 * 1000;

/** While `work` runs, every reading of the clock moves it on a millisecond: signatures taken one after the other differ in time. */
async function withTickingClock<T>(work: () => Promise<T>): Promise<T> {
  const read = ctx.clock.now;
  ctx.clock.now = () => {
    const at = read();
    ctx.clock.advance(1);
    return at;
  };
  try {
    return await work();
  } finally {
    ctx.clock.now = read;
  }
}

describe.runIf(process.env.QUORUM_TEST_DB === "postgres")("written resolutions under concurrency (real Postgres)", () => {
  it("the last two signatures at once: passed once, effective at the later of them, naming its signer", async () => {
    for (let round = 0; round < 4; round += 1) {
      ctx.clock.set("2026-06-03T14:05:00.000Z");
      const { founder, voters } = await boardWith(2);
      const id = await written.proposed(founder);
      await written.signed(founder, id, "agree");
      const [first, second] = await withTickingClock(() =>
        Promise.all([written.signWithPassword(voters[1]!, id, "agree"), written.signWithPassword(voters[2]!, id, "agree")]),
      );
      expect([first.status, second.status]).toEqual([200, 200]);
      const decided = await details(founder, id);
      expect(decided.status).toBe("approved");
      const certificate = decided.writtenCertificate!;
      const last = [...certificate.signatures].sort((a, b) => a.signedAt.localeCompare(b.signedAt)).at(-1)!;
      expect(certificate.signatures).toHaveLength(3);
      expect(certificate.effectiveAt).toBe(last.signedAt);
      expect(certificate.explanation).toMatch(new RegExp(`at the signature of ${last.name}$`));
      expect(new Date(certificate.decidedAt).getTime()).toBeGreaterThanOrEqual(new Date(last.signedAt).getTime());
      const decisions = await ctx.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "resolution.decided"), eq(auditEvents.targetId, String(id))));
      expect(decisions).toHaveLength(1);
      // The signature taken last under the lock (the last "signed" event of the chain) is the one that made it.
      const signedEvents = await ctx.db
        .select({ actorId: auditEvents.actorId })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, "resolution.signed"), eq(auditEvents.targetId, String(id))))
        .orderBy(asc(auditEvents.seq));
      expect(last.userId).toBe(signedEvents.at(-1)!.actorId);
    }
  });

  it("a signature racing the lapse is counted in the decision or refused, never both", async () => {
    const outcomes = new Set<number>();
    for (let round = 0; round < 8; round += 1) {
      ctx.clock.set("2026-06-03T14:05:00.000Z");
      const { founder, company, voters } = await boardWith(2);
      await written.setRule(company.id, { lapseDays: 1 });
      const id = await written.proposed(founder);
      await written.signWithPassword(voters[1]!, id, "agree");
      ctx.clock.advance(day - 1);
      const [late] = await Promise.all([
        written.signWithPassword(voters[2]!, id, "agree"),
        new Promise((resolve) => setTimeout(resolve, round * 3)).then(() => {
          ctx.clock.advance(1);
          return decideDue(ctx.deps, company.id);
        }),
      ]);
      outcomes.add(late.status);
      const decided = await details(founder, id);
      expect(decided.status).toBe("rejected");
      const counted = decided.writtenCertificate!.signatures.some((signature) => signature.userId === voters[2]!.id);
      const stored = await ctx.db.select().from(writtenSignatures).where(eq(writtenSignatures.userId, voters[2]!.id));
      if (late.status === 200) {
        expect(counted).toBe(true);
        expect(stored).toHaveLength(1);
      } else {
        expect(late.status).toBe(409);
        expect(counted).toBe(false);
        expect(stored).toEqual([]);
      }
    }
    expect([...outcomes].every((status) => status === 200 || status === 409)).toBe(true);
  });
});
