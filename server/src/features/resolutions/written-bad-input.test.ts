import { and, eq } from "drizzle-orm";
import { signingStatementText, type SigningStatement } from "../../../../shared/written-resolutions";
import { statementChallenge } from "../../crypto/text-hash";
import { authChallenges, writtenSignatures } from "../../db/schema";
import { openSigningChallengesPerUser } from "../auth/signing-proof.service";
import { resolutionFixtures } from "../../testing/resolution-fixtures";
import { enableTotp, nextTotpCode } from "../../testing/second-factor-fixtures";
import { SoftwareAuthenticator } from "../../testing/software-authenticator";
import { useMailingContext } from "../../testing/test-smtp";
import { writtenFixtures } from "../../testing/written-fixtures";

// Every signature a written resolution must refuse, each with the error body and nothing written.

const { ctx, appUrl, api } = await useMailingContext();
const { boardWith, vote, details } = resolutionFixtures(ctx);
const written = writtenFixtures(ctx, appUrl);
// Each test starts a few minutes later: the wrong passwords of one do not count against the next's limits.
beforeEach(() => ctx.clock.advance(11 * 60_000));

const signaturesOf = (id: number) => ctx.db.select().from(writtenSignatures).where(eq(writtenSignatures.resolutionId, id));
const expectRefused = (response: { status: number; body: unknown }, status: number) => {
  expect(response.status).toBe(status);
  expect(response.body).toEqual(expect.objectContaining({ message: expect.any(String) }));
};

describe("signing a written resolution refuses", () => {
  it("signing twice, and after the outcome", async () => {
    const { founder, voters } = await boardWith(1);
    const id = await written.proposed(founder);
    const authenticator = await written.withPasskey(founder);
    // Two statements asked for at once: the second, signed after the first, is refused.
    const [first, second] = [await written.optionsFor(founder, id, "agree"), await written.optionsFor(founder, id, "disagree")];
    const sign = (issued: typeof first, decision: string) =>
      written.postSignature(founder, id, { decision, statement: issued.statement, response: authenticator.authenticate(issued.options) });
    expect((await sign(first, "agree")).status).toBe(200);
    const twice = await sign(second, "disagree");
    expectRefused(twice, 409);
    expect(twice.body.message).toBe("You have already signed this resolution");
    expectRefused(await written.signOptions(founder, id, "agree"), 409);
    expect((await signaturesOf(id)).map((row) => row.decision)).toEqual(["agree"]);
    expect((await written.signWithPassword(voters[1]!, id, "agree")).body.status).toBe("approved");
    const late = await written.signWithPassword(voters[1]!, id, "disagree");
    expectRefused(late, 409);
    expect(late.body.message).toBe("This resolution has already been decided");
  });

  it("a director who is not eligible: an observer (403), a recused director (409)", async () => {
    const { founder, voters, others } = await boardWith(1, ["observer"]);
    const id = await written.proposed(founder);
    expectRefused(await written.signOptions(others[0]!, id, "agree"), 403);
    expectRefused(await written.signWithPassword(others[0]!, id, "agree"), 403);
    const recused = voters[1]!;
    await written.withPasskey(recused);
    expect((await api().post(`/api/resolutions/${id}/conflict`).set("Authorization", recused.bearer).send({ reason: "Mine" })).status).toBe(
      204,
    );
    expectRefused(await written.signOptions(recused, id, "agree"), 409);
    // Told before any proof is looked at.
    expectRefused(await written.signWithPassword(recused, id, "agree"), 409);
    expect(await signaturesOf(id)).toEqual([]);
    const state = (await details(others[0]!, id)).written!;
    expect(state).toMatchObject({ maySign: false, mayWithdraw: false, mayNudge: false });
    expect(state.awaiting.map((person) => person.userId)).toEqual([founder.id]);
  });

  it("an assertion made for another challenge, another text, another decision or another resolution", async () => {
    const { founder } = await boardWith(1);
    const id = await written.proposed(founder);
    const other = await written.proposed(founder, { description: "Resolved: to close Berlin." });
    const authenticator = await written.withPasskey(founder);
    const send = (statement: string, options: Record<string, unknown>, decision = "agree", to = id) =>
      written.postSignature(founder, to, { decision, statement, response: authenticator.authenticate(options) });

    // Another challenge: the options of a second statement answered, the first statement sent.
    const first = await written.optionsFor(founder, id, "agree");
    const second = await written.optionsFor(founder, id, "agree");
    expectRefused(await send(first.statement, second.options), 400);
    // Another text: the statement's hash edited, the assertion made over the edited statement.
    const third = await written.optionsFor(founder, id, "agree");
    const edited = { ...(JSON.parse(third.statement) as SigningStatement), textSha256: "0".repeat(64) };
    const editedText = signingStatementText(edited);
    expectRefused(await send(editedText, { ...third.options, challenge: statementChallenge(editedText) }), 400);
    // Another decision: the statement says agree, the request disagree; or the statement itself edited to disagree.
    const fourth = await written.optionsFor(founder, id, "agree");
    expectRefused(await send(fourth.statement, fourth.options, "disagree"), 400);
    const fifth = await written.optionsFor(founder, id, "agree");
    const flipped = signingStatementText({ ...(JSON.parse(fifth.statement) as SigningStatement), decision: "disagree" });
    expectRefused(await send(flipped, { ...fifth.options, challenge: statementChallenge(flipped) }, "disagree"), 400);
    // Another resolution: a statement issued for one, sent to the other.
    const sixth = await written.optionsFor(founder, other, "agree");
    expectRefused(await send(sixth.statement, sixth.options, "agree", id), 400);
    // A statement that is not canonical JSON of the six fields.
    const seventh = await written.optionsFor(founder, id, "agree");
    const spaced = JSON.stringify(JSON.parse(seventh.statement), null, 1);
    expectRefused(await send(spaced, seventh.options), 400);
    expect(await signaturesOf(id)).toEqual([]);
  });

  it("keeps a few open signing challenges per director: asking again drops the oldest", async () => {
    const { founder } = await boardWith(1);
    const id = await written.proposed(founder);
    const authenticator = await written.withPasskey(founder);
    const issued = [];
    for (let round = 0; round <= openSigningChallengesPerUser; round += 1) issued.push(await written.optionsFor(founder, id, "agree"));
    const open = await ctx.db
      .select({ id: authChallenges.id })
      .from(authChallenges)
      .where(and(eq(authChallenges.userId, founder.id), eq(authChallenges.purpose, "written-signature")));
    expect(open).toHaveLength(openSigningChallengesPerUser);
    const [oldest, newest] = [issued[0]!, issued.at(-1)!];
    const send = ({ statement, options }: typeof oldest) =>
      written.postSignature(founder, id, { decision: "agree", statement, response: authenticator.authenticate(options) });
    expectRefused(await send(oldest), 400);
    expect((await send(newest)).status).toBe(200);
  });

  it("a reused nonce: spent at its first use, even a failed one", async () => {
    const { founder } = await boardWith(1);
    const id = await written.proposed(founder);
    const authenticator = await written.withPasskey(founder);
    const { statement, options } = await written.optionsFor(founder, id, "agree");
    const wrong = await written.postSignature(founder, id, {
      decision: "agree",
      statement,
      response: authenticator.authenticate({ ...options, challenge: statementChallenge("something else") }),
    });
    expectRefused(wrong, 400);
    const reused = await written.postSignature(founder, id, {
      decision: "agree",
      statement,
      response: authenticator.authenticate(options),
    });
    expectRefused(reused, 400);
    expect(reused.body.message).toBe("The statement to sign has expired or was already used: ask for a new one");
    // And one that expired unused.
    const late = await written.optionsFor(founder, id, "agree");
    ctx.clock.advance(5 * 60_000 + 1);
    expectRefused(
      await written.postSignature(founder, id, {
        decision: "agree",
        statement: late.statement,
        response: authenticator.authenticate(late.options),
      }),
      400,
    );
    expect(await signaturesOf(id)).toEqual([]);
  });

  it("a passkey of another account, and a passkey that did not verify its user", async () => {
    const { founder, voters } = await boardWith(1);
    const id = await written.proposed(founder);
    await written.withPasskey(founder);
    const theirs = await written.withPasskey(voters[1]!);
    const { statement, options } = await written.optionsFor(founder, id, "agree");
    const response = theirs.authenticate({ ...options, allowCredentials: [] }, { credential: theirs.credentials[0]! });
    expectRefused(await written.postSignature(founder, id, { decision: "agree", statement, response }), 400);
    // An account whose only second factor is a passkey signs with it, never with the password alone.
    const passwordOnly = await written.signWithPassword(founder, id, "agree");
    expectRefused(passwordOnly, 400);
    expect(passwordOnly.body.message).toBe("Your account's second factor is a passkey: sign with your passkey instead.");

    const presenceOnly = new SoftwareAuthenticator({ origin: appUrl, userVerified: false });
    presenceOnly.credentials.push(...written.authenticators.get(founder.id)!.credentials);
    const again = await written.optionsFor(founder, id, "agree");
    expect(again.options).toMatchObject({ userVerification: "required", challenge: again.challenge });
    expect(again.challenge).toBe(statementChallenge(again.statement));
    expectRefused(
      await written.postSignature(founder, id, {
        decision: "agree",
        statement: again.statement,
        response: presenceOnly.authenticate(again.options),
      }),
      400,
    );
    expect(await signaturesOf(id)).toEqual([]);
  });

  it("a wrong password or code; no code where the account has an app; and records password and code as such", async () => {
    const { founder, voters } = await boardWith(2);
    const id = await written.proposed(founder);
    const director = voters[1]!;
    expectRefused(await written.postSignature(director, id, { decision: "agree", password: "not the password" }), 400);
    const { secret, recoveryCodes } = await enableTotp(ctx, director);
    expectRefused(await written.signWithPassword(director, id, "agree"), 400);
    expectRefused(await written.signWithPassword(director, id, "agree", "000000"), 400);
    // A recovery code regains an account; it does not sign: refused, and left unspent.
    const recovery = await written.signWithPassword(director, id, "agree", recoveryCodes[0]!);
    expectRefused(recovery, 400);
    expect(recovery.body.message).toBe("Enter the 6-digit code from your app");
    expectRefused(
      await written.postSignature(director, id, {
        decision: "agree",
        password: "wrong",
        code: await nextTotpCode(ctx, director.id, secret),
      }),
      400,
    );
    expect(await signaturesOf(id)).toEqual([]);
    // Without a passkey there are no passkey options to give.
    expectRefused(await written.signOptions(director, id, "agree"), 409);

    const signed = await written.signWithPassword(director, id, "agree", await nextTotpCode(ctx, director.id, secret));
    expect(signed.status).toBe(200);
    expect(signed.body.written.mine).toMatchObject({ decision: "agree", method: "password+totp" });
    const [row] = await signaturesOf(id);
    expect(row).toMatchObject({ method: "password+totp", credentialId: null, signature: null });
    expect(JSON.parse(row!.statement)).toMatchObject({ resolutionId: id, signerId: director.id, decision: "agree" });
    const plain = await written.signWithPassword(voters[2]!, id, "agree");
    expect(plain.body.written.mine).toMatchObject({ method: "password" });
  });

  it("'I ask for a meeting' under unanimity, an online vote, and a show of hands on a written resolution", async () => {
    const { founder } = await boardWith(1);
    const id = await written.proposed(founder);
    expectRefused(await written.signWithPassword(founder, id, "meeting"), 409);
    const voted = await vote(founder, id, "yes");
    expectRefused(voted, 409);
    expect(voted.body.message).toBe("This is a written resolution: each director signs it instead of voting");
    const hands = await api()
      .post(`/api/resolutions/${id}/meeting-vote`)
      .set("Authorization", founder.bearer)
      .send({ meetingId: 1, votes: [{ userId: founder.id, vote: "yes" }] });
    expectRefused(hands, 409);
    // Signing, withdrawing and the statement refuse a vote.
    const aVote = await resolutionFixtures(ctx).created(founder);
    expectRefused(await written.signWithPassword(founder, aVote, "agree"), 409);
    expectRefused(await written.withdraw(founder, aVote), 409);
  });
});
