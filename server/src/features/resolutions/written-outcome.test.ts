import { createHash } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import request from "supertest";
import { writtenCertificateSchema, type WrittenCertificate } from "../../../../shared/written-resolutions";
import { formatUtc } from "../../clock";
import { textSha256 } from "../../crypto/text-hash";
import { auditEvents, documents, memberships } from "../../db/schema";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { useMailingContext } from "../../testing/test-smtp";
import { writtenFixtures } from "../../testing/written-fixtures";
import { decideDue } from "./resolution-decision";

// The outcome of a written resolution under each rule, at its edges: decided under the row lock as each signature,
// withdrawal or recusal arrives, and at the lapse; the certificate frozen with it.

const { ctx, appUrl, api } = await useMailingContext();
const { boardWith, details } = resolutionFixtures(ctx);
const written = writtenFixtures(ctx, appUrl);
beforeEach(() => ctx.clock.set("2026-06-03T14:05:00.000Z"));
const minute = 60_000;
const day = 24 * 60 * minute;

const conflictOn = (person: { bearer: string }, id: number) =>
  api().post(`/api/resolutions/${id}/conflict`).set("Authorization", person.bearer).send({ reason: "I am the landlord" });

describe("a written resolution under unanimity", () => {
  it("passes when every eligible director agreed, a recused one left out; effective at the last signature; the certificate frozen", async () => {
    const { founder, company, voters } = await boardWith(3, ["observer"]);
    const [, anna, ben, carl] = voters;
    const id = await written.proposed(founder);
    expect((await conflictOn(carl!, id)).status).toBe(204);
    await written.signed(founder, id, "agree");
    ctx.clock.advance(5 * minute);
    const pending = await written.signed(anna!, id, "agree");
    expect(pending.status).toBe("pending");
    // Who signed, never how, while pending.
    expect(pending.written).toMatchObject({
      signed: [
        { userId: founder.id, signedAt: "2026-06-03T14:05:00.000Z" },
        { userId: anna!.id, signedAt: "2026-06-03T14:10:00.000Z" },
      ],
      awaiting: [{ userId: ben!.id }],
      mine: { decision: "agree", method: "passkey" },
      maySign: false,
      mayWithdraw: true,
    });
    expect(JSON.stringify((await details(ben!, id)).written)).not.toContain("agree");

    ctx.clock.advance(day);
    const passed = await written.signWithPassword(ben!, id, "agree");
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({ status: "approved", decidedAt: "2026-06-04T14:10:00.000Z" });
    const benName = passed.body.writtenCertificate.signatures[2].name as string;
    expect(passed.body.explanation).toBe(
      `Passed: all 3 eligible directors agreed; effective ${formatUtc("2026-06-04T14:10:00.000Z")} at the signature of ${benName}`,
    );
    const certificate = writtenCertificateSchema.parse(passed.body.writtenCertificate) as WrittenCertificate;
    expect(certificate).toMatchObject({
      procedure: "written",
      resolutionId: id,
      companyId: company.id,
      text: "Resolved: to lease **2 floors**.",
      textSha256: textSha256("Resolved: to lease **2 floors**."),
      rule: { kind: "unanimous", lapseDays: 28, allowWithdrawal: true, meetingDemandPercent: 33 },
      proposedAt: "2026-06-03T14:05:00.000Z",
      lapsesAt: "2026-07-01T14:05:00.000Z",
      outcome: "approved",
      effectiveAt: "2026-06-04T14:10:00.000Z",
    });
    expect(certificate.eligible.map((person) => person.userId)).toEqual([founder.id, anna!.id, ben!.id]);
    expect(certificate.recused.map((person) => person.userId)).toEqual([carl!.id]);
    expect(certificate.signatures.map((signature) => [signature.userId, signature.method])).toEqual([
      [founder.id, "passkey"],
      [anna!.id, "passkey"],
      [ben!.id, "password"],
    ]);
    const passkeySignature = certificate.signatures[0]!;
    expect(passkeySignature.publicKey).toMatch(/^[\w-]+$/);
    expect(JSON.parse(passkeySignature.statement)).toMatchObject({ resolutionId: id, signerId: founder.id, decision: "agree" });
    expect(JSON.parse(certificate.signatures[2]!.statement)).toMatchObject({ signerId: ben!.id, nonce: expect.any(String) });
    // The audit head is the chain's after the decision's own event (filing the certificate's PDF comes after it).
    const [decision] = await ctx.db
      .select({ hash: auditEvents.hash })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "resolution.decided"), eq(auditEvents.targetId, String(id))));
    expect(certificate.auditHeadHash).toBe(decision!.hash);
    // The passkey signature's event ties it to the key's registration: the same hash of the COSE public key.
    const signedEvents = await ctx.db
      .select({ actorId: auditEvents.actorId, details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "resolution.signed"), eq(auditEvents.targetId, String(id))));
    expect(signedEvents.find((event) => event.actorId === founder.id)?.details).toMatchObject({
      method: "passkey",
      credentialId: passkeySignature.credentialId,
      publicKeySha256: createHash("sha256").update(Buffer.from(passkeySignature.publicKey!, "base64url")).digest("hex"),
    });
    // The certificate is filed in the library as a PDF, once.
    const library = await ctx.db
      .select({ name: documents.name, category: documents.category })
      .from(documents)
      .where(eq(documents.companyId, company.id));
    expect(library.filter((document) => document.category === "Resolution Certificates")).toEqual([
      { name: `Certificate of written resolution #${id} - ${certificate.title}.pdf`, category: "Resolution Certificates" },
    ]);
    const actions = await ctx.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, "resolution"), eq(auditEvents.targetId, String(id))))
      .orderBy(asc(auditEvents.seq));
    expect(actions.map((row) => row.action)).toEqual([
      "resolution.created",
      "resolution.conflict_declared",
      "resolution.signed",
      "resolution.signed",
      "resolution.signed",
      "resolution.decided",
    ]);

    // certificate.json is the same frozen certificate, for any member; a signature after it is refused.
    const json = await written.certificateJson(founder, id);
    expect(json.status).toBe(200);
    expect(json.body).toEqual(passed.body.writtenCertificate);
    expect((await written.certificateJson(voters[1]!, id)).status).toBe(200);
    expect((await written.signOptions(founder, id, "agree")).status).toBe(409);
    expect((await written.signWithPassword(carl!, id, "agree")).status).toBe(409);
    expect((await written.withdraw(anna!, id)).status).toBe(409);
  });

  it("is rejected at the first 'I do not agree', and a recusal can pass it when everyone else agreed", async () => {
    const { founder, voters } = await boardWith(2);
    const id = await written.proposed(founder);
    const rejected = await written.signed(voters[1]!, id, "disagree");
    expect(rejected.status).toBe("rejected");
    expect(rejected.explanation).toBe("Rejected: 1 of 3 eligible directors did not agree, so unanimity can no longer be met");
    expect(rejected.writtenCertificate).toMatchObject({ outcome: "rejected", effectiveAt: null });

    const next = await written.proposed(founder);
    await written.signed(founder, next, "agree");
    await written.signed(voters[1]!, next, "agree");
    expect((await conflictOn(voters[2]!, next)).status).toBe(204);
    const passed = await details(founder, next);
    expect(passed.status).toBe("approved");
    expect(passed.writtenCertificate?.recused.map((person) => person.userId)).toEqual([voters[2]!.id]);
  });

  it("is decided by the sweep when a director's departure meets the rule, effective at the last signature given", async () => {
    const { founder, company, voters } = await boardWith(2);
    const id = await written.proposed(founder);
    await written.signed(founder, id, "agree");
    const lastSigned = await written.signed(voters[1]!, id, "agree");
    ctx.clock.advance(minute);
    await ctx.db.delete(memberships).where(and(eq(memberships.userId, voters[2]!.id), eq(memberships.companyId, company.id)));
    // Nothing of the resolution's own changed: only the sweep finds it decided.
    expect((await details(founder, id)).status).toBe("pending");
    await decideDue(ctx.deps);
    const passed = await details(founder, id);
    expect(passed.status).toBe("approved");
    expect(passed.writtenCertificate?.effectiveAt).toBe(lastSigned.written?.mine?.signedAt);
    expect(passed.writtenCertificate?.eligible.map((person) => person.userId)).toEqual([founder.id, voters[1]!.id]);
  });

  it("a recusal deletes the declarer's signature", async () => {
    const { founder, voters } = await boardWith(2);
    const id = await written.proposed(founder);
    await written.signed(voters[1]!, id, "agree");
    expect((await conflictOn(voters[1]!, id)).status).toBe(204);
    const after = await details(founder, id);
    expect(after.written?.signed).toEqual([]);
    expect(after.written?.awaiting.map((person) => person.userId)).toEqual([founder.id, voters[2]!.id]);
    // Withdrawing the declaration does not bring the signature back: the director signs again.
    expect((await api().delete(`/api/resolutions/${id}/conflict`).set("Authorization", voters[1]!.bearer)).status).toBe(204);
    expect((await details(voters[1]!, id)).written).toMatchObject({ mine: null, maySign: true, signed: [] });
  });
});

describe("a written resolution under the majority rule", () => {
  it("is referred to a meeting once the requests reach the share, effective at the request that reached it", async () => {
    const { founder, company, voters } = await boardWith(3);
    await written.setRule(company.id, { kind: "majority", meetingDemandPercent: 50 });
    const id = await written.proposed(founder);
    await written.signed(voters[1]!, id, "meeting");
    await written.signed(voters[2]!, id, "agree");
    ctx.clock.advance(minute);
    const referred = await written.signed(voters[3]!, id, "meeting");
    expect(referred.status).toBe("referred");
    expect(referred.writtenCertificate).toMatchObject({ outcome: "referred", effectiveAt: "2026-06-03T14:06:00.000Z" });
    expect(referred.explanation).toMatch(/^Referred to a meeting: 2 of 4 eligible directors asked for a meeting, at least 50%; effective /);
  });

  it("passes with more than half agreeing, and is rejected once more than half can no longer agree", async () => {
    const { founder, company, voters } = await boardWith(3);
    await written.setRule(company.id, { kind: "majority" });
    const id = await written.proposed(founder);
    await written.signed(voters[0]!, id, "agree");
    await written.signed(voters[1]!, id, "disagree");
    expect((await details(founder, id)).status).toBe("pending");
    ctx.clock.advance(minute);
    await written.signed(voters[2]!, id, "agree");
    ctx.clock.advance(minute);
    const passed = await written.signed(voters[3]!, id, "agree");
    expect(passed.status).toBe("approved");
    // 3 of 4 is more than half: the third agreement made it, a minute before the fourth.
    expect(passed.writtenCertificate?.effectiveAt).toBe("2026-06-03T14:07:00.000Z");
    expect(passed.written?.signed).toHaveLength(4);
    expect(passed.written?.signed).toEqual(expect.arrayContaining([expect.objectContaining({ userId: voters[3]!.id })]));

    const next = await written.proposed(founder);
    await written.signed(voters[0]!, next, "disagree");
    const rejected = await written.signed(voters[1]!, next, "disagree");
    expect(rejected.status).toBe("rejected");
    expect(rejected.explanation).toBe("Rejected: at most 2 of 4 eligible directors can still agree, so more than half can no longer agree");
  });
});

describe("the lapse", () => {
  it("rejects a written resolution still open at its lapse, by a read or the sweep, and refuses a signature then", async () => {
    const { founder, company, voters } = await boardWith(2);
    await written.setRule(company.id, { lapseDays: 3 });
    const id = await written.proposed(founder);
    await written.signed(voters[1]!, id, "agree");
    ctx.clock.advance(3 * day - 1);
    expect((await details(founder, id)).status).toBe("pending");
    ctx.clock.advance(1);
    // The pending list is one of the reads that decide it.
    const pending = await api().get(`/api/companies/${company.id}/resolutions/pending`).set("Authorization", founder.bearer);
    expect(pending.body).toEqual([]);
    const lapsed = await details(founder, id);
    expect(lapsed).toMatchObject({ status: "rejected", decidedAt: "2026-06-06T14:05:00.000Z" });
    expect(lapsed.explanation).toBe("Lapsed: it lapsed after 3 days with 1 of 3 eligible directors agreeing");
    expect(lapsed.writtenCertificate?.signatures.map((signature) => signature.userId)).toEqual([voters[1]!.id]);
    expect((await written.signWithPassword(voters[2]!, id, "agree")).status).toBe(409);

    const swept = await written.proposed(founder);
    ctx.clock.advance(3 * day);
    expect(await decideDue(ctx.deps, company.id)).toBe(1);
    expect((await details(founder, swept)).status).toBe("rejected");
    // A signature the instant before the lapse counts; the lapse itself finds nothing more to decide.
    const last = await written.proposed(founder);
    ctx.clock.advance(3 * day - 1);
    await written.signed(founder, last, "agree");
    await written.signed(voters[1]!, last, "agree");
    const final = await written.signed(voters[2]!, last, "agree");
    expect(final.status).toBe("approved");
  });

  it("decides lapsed written resolutions on the list, which answers them decided", async () => {
    const { founder, company } = await boardWith(1);
    await written.setRule(company.id, { lapseDays: 2 });
    const id = await written.proposed(founder);
    ctx.clock.advance(2 * day);
    const list = await api().get(`/api/companies/${company.id}/resolutions`).set("Authorization", founder.bearer);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.find((row: { id: number }) => row.id === id)).toMatchObject({ status: "rejected", procedure: "written" });
    expect((await written.certificateJson(founder, id)).body.outcome).toBe("rejected");
  });
});

describe("withdrawing a signature", () => {
  it("is allowed while pending where the rule allows, and refused where it forbids, unsigned, or after the outcome", async () => {
    const { founder, company, voters } = await boardWith(1);
    const id = await written.proposed(founder);
    await written.signed(founder, id, "agree");
    const withdrawn = await written.withdraw(founder, id);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.written).toMatchObject({ signed: [], mine: null, maySign: true });
    expect((await written.withdraw(founder, id)).status).toBe(409);
    // Signing again after withdrawing is a new signature.
    await written.signed(founder, id, "agree");
    expect((await written.signed(voters[1]!, id, "agree")).status).toBe("approved");
    expect((await written.withdraw(founder, id)).status).toBe(409);

    // The rule is the one the resolution was proposed under: changing the setting later changes nothing.
    await written.setRule(company.id, { allowWithdrawal: false });
    const forbidden = await written.proposed(founder);
    await written.setRule(company.id, { allowWithdrawal: true });
    const signed = await written.signed(founder, forbidden, "agree");
    expect(signed.written).toMatchObject({ mayWithdraw: false, rule: { allowWithdrawal: false } });
    const refused = await written.withdraw(founder, forbidden);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("The board's rule for this resolution does not allow a signature to be withdrawn");
  });
});

describe("GET /api/resolutions/:id/certificate.json", () => {
  it("is 404 while pending and for a vote", async () => {
    const { founder } = await boardWith(1);
    const id = await written.proposed(founder);
    expect((await written.certificateJson(founder, id)).status).toBe(404);
    const vote = await resolutionFixtures(ctx).created(founder);
    expect((await written.certificateJson(founder, vote)).status).toBe(404);
    const outsider = await ctx.signUp();
    expect((await request(ctx.app).get(`/api/resolutions/${id}/certificate.json`).set("Authorization", outsider.bearer)).status).toBe(404);
  });
});
