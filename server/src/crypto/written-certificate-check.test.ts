import { createHash } from "node:crypto";
import type { WrittenCertificate, WrittenSignature } from "../../../shared/written-resolutions";
import { signedStatement, writtenCertificateFixture } from "../testing/written-certificate-fixtures";
import { checkWrittenCertificate } from "./written-certificate-check";

/** The SHA-256 of a passkey's COSE public key: what its registration's audit event carries. */
const keyHash = (signature: WrittenSignature) => createHash("sha256").update(Buffer.from(signature.publicKey!, "base64url")).digest("hex");

// The offline check of a written resolution's certificate, on certificates signed by real (software) passkeys.

const board = () =>
  writtenCertificateFixture({
    directors: [
      { name: "Jane Doe", decision: "agree" },
      { name: "Raj Patel", decision: "agree", method: "password+totp" },
      { name: "Mia Chen", decision: "agree" },
    ],
    recused: ["Tom Ford"],
  });

/** A deep copy to tamper with. */
const copy = (certificate: WrittenCertificate): WrittenCertificate => JSON.parse(JSON.stringify(certificate));

describe("checkWrittenCertificate", () => {
  it("passes a certificate signed by passkeys and a password and code, one line per signer and the outcome", async () => {
    const certificate = board();
    expect(certificate.outcome).toBe("approved");
    const checked = await checkWrittenCertificate(copy(certificate));
    expect(checked).toEqual({ valid: true, lines: expect.any(Array) });
    expect(checked.lines).toEqual([
      `Jane Doe (user 101): agree by passkey at 2026-06-01T10:00:00.000Z, credential ${certificate.signatures[0]!.credentialId}, key sha256 ${keyHash(certificate.signatures[0]!)}: signature verified`,
      "Raj Patel (user 102): agree by password+totp at 2026-06-01T11:00:00.000Z: statement ok; a password+totp signature cannot be checked offline",
      `Mia Chen (user 103): agree by passkey at 2026-06-01T12:00:00.000Z, credential ${certificate.signatures[2]!.credentialId}, key sha256 ${keyHash(certificate.signatures[2]!)}: signature verified`,
      "approved: 3 agree, 0 disagree, 0 meeting of 3 eligible, under the unanimous rule",
      "2 of 3 signatures verified with their passkeys; 1 by password rest on Quorum's record",
    ]);
  });

  it("takes the effective time from the signature that met the rule, not the last one (decided later, at a recusal)", async () => {
    // A majority of three: A and B agree (B's agreement meets it), C disagrees after; D's recusal decided it later.
    const certificate = writtenCertificateFixture({
      rule: { kind: "majority" },
      directors: [{ name: "A", decision: "agree" }, { name: "B", decision: "agree" }, { name: "C" }],
      recused: ["D"],
    });
    const bAt = certificate.signatures[1]!.signedAt;
    expect(certificate.effectiveAt).toBe(bAt);
    const cAt = new Date(Date.parse(bAt) + 3_600_000);
    certificate.signatures.push(signedStatement(certificate, certificate.eligible[2]!, "disagree", "password", cAt));
    certificate.decidedAt = new Date(cAt.getTime() + 3_600_000).toISOString();
    expect(await checkWrittenCertificate(copy(certificate))).toMatchObject({ valid: true });
    expect(await checkWrittenCertificate({ ...copy(certificate), effectiveAt: cAt.toISOString() })).toMatchObject({
      valid: false,
      failure: `the effective time is the deciding signature's (${bAt}), not the ${cAt.toISOString()} recorded`,
    });
  });

  it("passes a majority's referral, and a lapse with no effective time", async () => {
    const referred = writtenCertificateFixture({
      rule: { kind: "majority", meetingDemandPercent: 50 },
      directors: [{ name: "A", decision: "meeting" }, { name: "B", decision: "agree" }, { name: "C", decision: "meeting" }, { name: "D" }],
    });
    expect(referred.outcome).toBe("referred");
    expect(await checkWrittenCertificate(referred)).toMatchObject({ valid: true });
    const lapsed = writtenCertificateFixture({ directors: [{ name: "A", decision: "agree" }, { name: "B" }] });
    expect(lapsed).toMatchObject({ outcome: "rejected", effectiveAt: null, decidedAt: lapsed.lapsesAt });
    expect(await checkWrittenCertificate(lapsed)).toMatchObject({ valid: true });
  });

  it("fails naming the first signer when one byte of the text is changed", async () => {
    const certificate = copy(board());
    certificate.text = certificate.text.replace("FY27", "FY28");
    const checked = await checkWrittenCertificate(certificate);
    expect(checked).toMatchObject({ valid: false, lines: [] });
    if (checked.valid) return;
    expect(checked.failure).toMatch(
      /^Jane Doe \(user 101\): signed a text whose SHA-256 is [0-9a-f]{64}, but this text's is [0-9a-f]{64}$/,
    );
  });

  it("fails when the text and its recorded hash are both changed: the signatures commit to the old hash", async () => {
    const certificate = copy(board());
    certificate.text += " ";
    certificate.textSha256 = "f".repeat(64);
    const checked = await checkWrittenCertificate(certificate);
    expect(checked.valid).toBe(false);
    if (!checked.valid) expect(checked.failure).toMatch(/^Jane Doe \(user 101\)/);
  });

  it("fails when only the recorded hash is changed", async () => {
    const certificate = copy(board());
    certificate.textSha256 = "0".repeat(64);
    const checked = await checkWrittenCertificate(certificate);
    expect(checked.valid).toBe(false);
    if (!checked.valid) expect(checked.failure).toMatch(/^the text's SHA-256 is [0-9a-f]{64}, not the 0{64} recorded$/);
  });

  it("fails naming the signer when the signature fields of two signers are swapped", async () => {
    const certificate = copy(board());
    const [jane, , mia] = certificate.signatures;
    const evidence = ["statement", "credentialId", "publicKey", "authenticatorData", "clientDataJSON", "signature"] as const;
    for (const field of evidence) [jane![field], mia![field]] = [mia![field]!, jane![field]!];
    const checked = await checkWrittenCertificate(certificate);
    expect(checked.valid).toBe(false);
    if (!checked.valid) expect(checked.failure).toBe("Jane Doe (user 101): the signed statement names signer 103, not 101");
  });

  it("fails naming the signer when a decision is edited, with or without its statement", async () => {
    const edited = copy(board());
    edited.signatures[2]!.decision = "disagree";
    const checked = await checkWrittenCertificate(edited);
    expect(checked).toMatchObject({ valid: false, lines: [expect.stringMatching(/^Jane Doe/), expect.stringMatching(/^Raj Patel/)] });
    if (!checked.valid)
      expect(checked.failure).toBe('Mia Chen (user 103): the signed statement names the decision "agree", not "disagree"');

    // The statement edited to match: the passkey signed the other one.
    const both = copy(board());
    const mia = both.signatures[2]!;
    mia.decision = "disagree";
    mia.statement = mia.statement.replace('"decision":"agree"', '"decision":"disagree"');
    const again = await checkWrittenCertificate(both);
    expect(again.valid).toBe(false);
    if (!again.valid) expect(again.failure).toBe("Mia Chen (user 103): the passkey answered another challenge than the statement's");
  });

  it("fails when the arithmetic is edited: an agreement removed leaves unanimity unmet", async () => {
    const certificate = copy(board());
    certificate.signatures.splice(1, 1);
    const checked = await checkWrittenCertificate(certificate);
    expect(checked.valid).toBe(false);
    if (!checked.valid) {
      expect(checked.failure).toBe(
        "the rule does not decide it with 2 agree, 0 disagree, 0 meeting of 3 eligible, yet it is recorded as approved",
      );
    }
  });

  it("fails when the effective time is not the last signature's, or a rejection has one", async () => {
    const late = copy(board());
    late.effectiveAt = late.decidedAt.replace("12:00", "12:30");
    expect(await checkWrittenCertificate(late)).toMatchObject({ valid: false, failure: expect.stringMatching(/^the effective time/) });
    const lapsed = copy(writtenCertificateFixture({ directors: [{ name: "A", decision: "agree" }, { name: "B" }] }));
    lapsed.effectiveAt = lapsed.signatures[0]!.signedAt;
    expect(await checkWrittenCertificate(lapsed)).toMatchObject({ valid: false, failure: expect.stringMatching(/^a rejected resolution/) });
  });

  it("fails naming the signer who was recused, not eligible, or signed twice", async () => {
    const recused = copy(board());
    recused.recused.push(recused.eligible.splice(1, 1)[0]!);
    expect(await checkWrittenCertificate(recused)).toMatchObject({ failure: "Raj Patel (user 102): signed but was recused" });
    const stranger = copy(board());
    stranger.eligible.splice(2, 1);
    expect(await checkWrittenCertificate(stranger)).toMatchObject({
      failure: "Mia Chen (user 103): signed but was not an eligible director",
    });
    const twice = copy(board());
    twice.signatures.push({ ...twice.signatures[0]! });
    expect(await checkWrittenCertificate(twice)).toMatchObject({
      failure: "Jane Doe (user 101): the nonce of the statement was used by another signature",
    });
  });

  it("fails on a passkey signature whose user was not verified or whose key is another's", async () => {
    const unverified = copy(board());
    const jane = unverified.signatures[0]!;
    const authData = Buffer.from(jane.authenticatorData!, "base64url");
    authData[32]! &= ~0x04;
    jane.authenticatorData = authData.toString("base64url");
    expect(await checkWrittenCertificate(unverified)).toMatchObject({
      failure: "Jane Doe (user 101): the passkey did not verify its user",
    });
    const otherKey = copy(board());
    otherKey.signatures[0]!.publicKey = otherKey.signatures[2]!.publicKey;
    expect(await checkWrittenCertificate(otherKey)).toMatchObject({
      failure: "Jane Doe (user 101): the passkey's signature does not verify with its public key",
    });
  });

  it("fails on what is not a certificate, or a statement not in canonical form", async () => {
    expect(await checkWrittenCertificate({ procedure: "vote" })).toMatchObject({
      valid: false,
      failure: expect.stringMatching(/^not a written/),
    });
    const spaced = copy(board());
    spaced.signatures[1]!.statement = spaced.signatures[1]!.statement.replace(",", ", ");
    expect(await checkWrittenCertificate(spaced)).toMatchObject({
      failure: "Raj Patel (user 102): the signed statement is not in canonical form",
    });
  });
});
