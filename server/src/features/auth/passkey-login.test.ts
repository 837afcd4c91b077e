import { and, eq } from "drizzle-orm";
import request from "supertest";
import { authChallenges } from "../../db/schema";
import { SoftwareAuthenticator } from "../../testing/software-authenticator";
import { useTestContext } from "../../testing/test-context";
import { passkeyFixtures } from "../../testing/passkey-fixtures";

const appUrl = "https://board.quorum.test";
const ctx = useTestContext({ mail: { from: "Quorum <board@quorum.test>", appUrl } });
const api = () => request(ctx.app);
const { withPasskey, loginOptions } = passkeyFixtures(ctx, appUrl);

// Each test starts a minute later, so the failures one test provokes on purpose do not count against the next's limit.
beforeEach(() => ctx.clock.advance(2 * 60_000));

describe("passkeys", () => {
  it("refuses a sign-in answer for another challenge, a replayed one and one for another site, with 401", async () => {
    const user = await ctx.signUp();
    const { authenticator } = await withPasskey(user);

    const first = await loginOptions();
    const second = await loginOptions();
    // Signed for the first challenge, sent with the second.
    const crossed = await api()
      .post("/api/auth/passkeys/login")
      .send({ challenge: second.challenge, response: authenticator.authenticate(first.options) });
    expect(crossed.status).toBe(401);
    expect(crossed.body).toEqual({ message: expect.any(String) });
    expect(crossed.body).not.toHaveProperty("token");

    // A passkey that reports no signature counter (as synced ones do): only the spent challenge stops the replay.
    const { authenticator: uncounted } = await withPasskey(
      user,
      "Synced",
      new SoftwareAuthenticator({ origin: appUrl, countsSignatures: false }),
    );
    const third = await loginOptions();
    const answer = uncounted.authenticate(third.options);
    expect((await api().post("/api/auth/passkeys/login").send({ challenge: third.challenge, response: answer })).status).toBe(200);
    const replayed = await api().post("/api/auth/passkeys/login").send({ challenge: third.challenge, response: answer });
    expect(replayed.status).toBe(401);

    const fourth = await loginOptions();
    const phished = await api()
      .post("/api/auth/passkeys/login")
      .send({ challenge: fourth.challenge, response: authenticator.authenticate(fourth.options, { origin: "https://evil.example" }) });
    expect(phished.status).toBe(401);

    // An expired challenge.
    const fifth = await loginOptions();
    ctx.clock.advance(5 * 60_000 + 1);
    expect(
      (
        await api()
          .post("/api/auth/passkeys/login")
          .send({ challenge: fifth.challenge, response: authenticator.authenticate(fifth.options) })
      ).status,
    ).toBe(401);
  });

  it("signs in with a passkey alone only if it verified its user", async () => {
    const user = await ctx.signUp();
    const presenceOnly = new SoftwareAuthenticator({ origin: appUrl, userVerified: false });
    await withPasskey(user, "Security key", presenceOnly);
    const { challenge, options } = await loginOptions();
    expect(
      (
        await api()
          .post("/api/auth/passkeys/login")
          .send({ challenge, response: presenceOnly.authenticate(options) })
      ).status,
    ).toBe(401);
  });

  it("counts failed passkey sign-ins against the account's limit: 429 after 10 in a minute", async () => {
    const user = await ctx.signUp();
    const { authenticator } = await withPasskey(user);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1) {
      const { challenge, options } = await loginOptions();
      const response = authenticator.authenticate(options, { origin: "https://evil.example" });
      statuses.push((await api().post("/api/auth/passkeys/login").send({ challenge, response })).status);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
  });

  it("signs in with a password and a passkey as the second step; the sign-in cannot then be completed again", async () => {
    const user = await ctx.signUp();
    const stranger = await ctx.signUp();
    const { authenticator } = await withPasskey(user);
    const { authenticator: strangers } = await withPasskey(stranger);

    const password = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
    expect(password.status).toBe(200);
    expect(password.body).toEqual({ secondFactorRequired: true, challenge: expect.any(String), methods: ["passkey"] });
    const signIn = password.body.challenge as string;

    // Another user's passkey cannot answer this user's sign-in.
    const forStranger = await loginOptions({ challenge: signIn });
    expect(forStranger.options.allowCredentials).toEqual([expect.objectContaining({ id: authenticator.credentials[0]!.id })]);
    const wrongUser = await api()
      .post("/api/auth/passkeys/login")
      .send({
        challenge: forStranger.challenge,
        response: strangers.authenticate(forStranger.options, { credential: strangers.credentials[0] }),
      });
    expect(wrongUser.status).toBe(401);

    const { challenge, options } = await loginOptions({ challenge: signIn });
    const signedIn = await api()
      .post("/api/auth/passkeys/login")
      .send({ challenge, response: authenticator.authenticate(options) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ id: user.id, token: expect.any(String) });

    // The password step is spent: neither a passkey nor a code completes it again.
    expect((await api().post("/api/auth/passkeys/login-options").send({ challenge: signIn })).status).toBe(401);
    expect((await api().post("/api/auth/login/second-factor").send({ challenge: signIn, code: "123456" })).status).toBe(401);
    expect(
      await ctx.db
        .select()
        .from(authChallenges)
        .where(and(eq(authChallenges.userId, user.id), eq(authChallenges.purpose, "second-factor"))),
    ).toEqual([]);
  });

  it("answers login options for a sign-in that is not in progress with 401", async () => {
    const unknown = await api()
      .post("/api/auth/passkeys/login-options")
      .send({ challenge: "A".repeat(43) });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: expect.any(String) });
  });

  it("limits the passkey sign-ins one address may start: the 101st in a minute is 429, and a minute later it may start again", async () => {
    const ask = () => api().post("/api/auth/passkeys/login-options").send({});
    for (let started = 0; started < 100; started += 1) expect((await ask()).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("60");
    ctx.clock.advance(61_000);
    expect((await ask()).status).toBe(200);
  });
});
