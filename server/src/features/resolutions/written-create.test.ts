import { and, eq } from "drizzle-orm";
import request from "supertest";
import type { SignedUp } from "../../testing/test-context";
import { textSha256 } from "../../crypto/text-hash";
import { auditEvents, notifications, resolutions, userPreferences } from "../../db/schema";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { useMailingContext } from "../../testing/test-smtp";
import { writtenFixtures } from "../../testing/written-fixtures";

// Proposing a written resolution, telling every eligible director, and reading its signing state.

const { ctx, smtp, appUrl, api } = await useMailingContext();
const { boardWith, details } = resolutionFixtures(ctx);
const written = writtenFixtures(ctx, appUrl);
beforeEach(() => ctx.clock.set("2026-06-03T14:05:00.000Z"));

// Markdown, with a character outside ASCII: the hash is of its UTF-8 bytes.
const text = "Resolved: that the company leases **two floors** at Torstraße 1, Berlin.\n\n- for 5 years";

describe("POST /api/resolutions with procedure written", () => {
  it("freezes the text and its hash, the board's rule at that moment and the lapse; type and deadline sent are ignored", async () => {
    const { founder, company, voters } = await boardWith(1);
    await written.setRule(company.id, { kind: "majority", lapseDays: 14, allowWithdrawal: false, meetingDemandPercent: 40 });
    const response = await written.propose(voters[1]!, { description: text, type: "Special", deadline: "2030-01-01T00:00:00.000Z" });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      procedure: "written",
      description: text,
      textSha256: textSha256(text),
      type: "Ordinary",
      status: "pending",
      lapsesAt: "2026-06-17T14:05:00.000Z",
      deadline: "2026-06-17T14:05:00.000Z",
      createdBy: voters[1]!.id,
    });
    const id = response.body.id as number;
    const [row] = await ctx.db.select().from(resolutions).where(eq(resolutions.id, id));
    expect(row?.writtenRule).toEqual({ kind: "majority", lapseDays: 14, allowWithdrawal: false, meetingDemandPercent: 40 });
    const [audit] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "resolution.created"), eq(auditEvents.targetId, String(id))));
    expect(audit?.details).toMatchObject({ procedure: "written", textSha256: textSha256(text), lapsesAt: "2026-06-17T14:05:00.000Z" });
    // Under unanimity the type is Unanimous; the setting changed later does not touch the one proposed.
    await written.setRule(company.id, { kind: "unanimous" });
    expect((await written.propose(founder)).body.type).toBe("Unanimous");
    expect((await details(founder, id)).written?.rule.kind).toBe("majority");
  });

  it("tells every other eligible director by the bell and by e-mail with a link to it, as their switches allow; never an observer", async () => {
    await smtp.deliver(ctx);
    const { founder, voters, others } = await boardWith(2, ["observer"]);
    const quiet = voters[2]!;
    await ctx.db.insert(userPreferences).values({ userId: quiet.id, settings: { resolutionVoting: false } });
    const id = await written.proposed(founder, { title: "Lease Berlin" });
    const bells = await ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.link, `/resolutions/${id}`));
    expect(bells.map((bell) => bell.userId)).toEqual([voters[1]!.id]);
    expect(bells[0]).toMatchObject({ kind: "resolutionCreated", title: "Written resolution to sign: Lease Berlin" });

    const mails = await smtp.deliver(ctx);
    const to = (person: SignedUp) => mails.filter((mail) => mail.to.includes(person.email));
    expect(to(quiet)).toEqual([]);
    expect(to(others[0]!)).toEqual([]);
    expect(to(founder)).toEqual([]);
    const [mail] = to(voters[1]!);
    expect(mail?.subject).toContain("Written resolution to sign: Lease Berlin");
    expect(mail?.text).toContain("asks for your signature on a written resolution");
    expect(mail?.text).toContain(`${appUrl}/resolutions/${id}`);
  });

  it("takes documents of the company only, as a vote does", async () => {
    const { founder } = await boardWith(1);
    const refused = await written.propose(founder, { documentIds: [999_999] });
    expect(refused.status).toBe(400);
  });
});

describe("reading a written resolution", () => {
  it("answers its signing state: who signed and who not, the caller's own, and who may sign, withdraw and nudge", async () => {
    const { founder, company, voters, others } = await boardWith(2, ["admin", "observer"]);
    const [, proposer, other] = voters;
    const id = await written.proposed(proposer!);
    const asProposer = (await details(proposer!, id)).written!;
    expect(asProposer).toMatchObject({
      rule: { kind: "unanimous", lapseDays: 28, allowWithdrawal: true, meetingDemandPercent: 33 },
      signed: [],
      mine: null,
      maySign: true,
      mayWithdraw: false,
      mayNudge: true,
    });
    // The admin is a director too; the observer is neither eligible nor asked.
    expect(asProposer.awaiting.map((person) => person.userId)).toEqual([founder.id, proposer!.id, other!.id, others[0]!.id]);
    expect((await details(other!, id)).written).toMatchObject({ maySign: true, mayNudge: false });
    expect((await details(founder, id)).written?.mayNudge).toBe(true);
    expect((await details(others[0]!, id)).written?.mayNudge).toBe(true);
    expect((await details(others[1]!, id)).written).toMatchObject({ maySign: false, mayNudge: false });

    await written.signWithPassword(other!, id, "agree");
    const after = await details(founder, id);
    expect(after.written?.signed).toEqual([{ userId: other!.id, name: expect.any(String), signedAt: "2026-06-03T14:05:00.000Z" }]);
    expect(after.written?.mine).toBeNull();
    expect(after.writtenCertificate).toBeNull();
    expect(after.voteCounts).toEqual({ yes: 0, no: 0, abstain: 0 });

    // The pending summary tells each caller whether the resolution awaits their signature.
    const pending = async (person: SignedUp) =>
      (await request(ctx.app).get(`/api/companies/${company.id}/resolutions/pending`).set("Authorization", person.bearer)).body as {
        id: number;
        procedure: string;
        awaitingYourSignature: boolean;
      }[];
    expect((await pending(founder)).find((row) => row.id === id)).toMatchObject({ procedure: "written", awaitingYourSignature: true });
    expect((await pending(other!)).find((row) => row.id === id)?.awaitingYourSignature).toBe(false);
    expect((await pending(others[1]!)).find((row) => row.id === id)?.awaitingYourSignature).toBe(false);
  });

  it("reads one, and the pending list, in a fixed number of queries, however many directors have signed", async () => {
    const small = await boardWith(1);
    const large = await boardWith(6);
    const reads: number[][] = [];
    for (const [index, { founder, company, voters }] of [small, large].entries()) {
      let id = 0;
      for (let count = 0; count < 1 + index * 4; count += 1) id = await written.proposed(founder);
      for (const voter of voters.slice(1)) await written.signWithPassword(voter, id, "agree");
      const queries = (path: string) =>
        ctx.countQueries(async () => {
          expect((await api().get(path).set("Authorization", founder.bearer)).status).toBe(200);
        });
      reads.push([await queries(`/api/resolutions/${id}`), await queries(`/api/companies/${company.id}/resolutions/pending`)]);
    }
    expect(reads[0]).toEqual(reads[1]);
  });
});
