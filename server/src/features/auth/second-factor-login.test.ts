import { and, eq, isNotNull } from "drizzle-orm";
import request from "supertest";
import { auditEvents, passkeys, recoveryCodes, sessions, users } from "../../db/schema";
import { enableTotp, nextTotpCode, startSignIn, stepAt, totpCode } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { refreshSecondFactorFlag } from "./second-factor-state";

const ctx = useTestContext();
const api = () => request(ctx.app);
const secondStep = (challenge: string, code: string) => api().post("/api/auth/login/second-factor").send({ challenge, code });

/** A user with an authenticator app on. */
async function userWithApp(fields: Parameters<typeof ctx.signUp>[0] = {}): Promise<SignedUp & { secret: string; recoveryCodes: string[] }> {
  const user = await ctx.signUp(fields);
  return { ...user, ...(await enableTotp(ctx, user)) };
}

describe("a sign-in in two steps", () => {
  it("answers a challenge and no session for the right password, then signs in with a code from the app", async () => {
    const user = await userWithApp({ username: "twostep" });
    const first = await api().post("/api/auth/login").send({ username: "twostep", password: user.password });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ secondFactorRequired: true, challenge: expect.any(String), methods: ["totp", "recovery"] });
    expect(first.body).not.toHaveProperty("token");
    expect(first.headers["set-cookie"]).toBeUndefined();
    ctx.noteSecret(first.body.challenge);
    const sessionsBefore = await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));

    const second = await secondStep(first.body.challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(second.status).toBe(200);
    // The very answer of a sign-in without a second factor: the user, the token, and the cookie.
    expect(second.body).toMatchObject({ id: user.id, username: "twostep", secondFactor: true, token: expect.any(String) });
    ctx.noteSecret(second.body.token);
    expect(String(second.headers["set-cookie"])).toContain(`quorum_session=${second.body.token}`);
    const me = await api().get("/api/auth/user").set("Authorization", `Bearer ${second.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);

    // The new session remembers it passed a second factor, and when.
    const after = await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(after).toHaveLength(sessionsBefore.length + 1);
    const fresh = after.find((row) => !sessionsBefore.some((old) => old.id === row.id));
    expect(fresh?.secondFactorAt?.toISOString()).toBe(ctx.clock.now().toISOString());
  });

  it("lists a passkey among the methods when the user has one", async () => {
    const user = await userWithApp();
    await ctx.db
      .insert(passkeys)
      .values({ userId: user.id, credentialId: `cred-${user.id}`, publicKey: Buffer.from([1, 2, 3]), name: "Laptop" });
    expect((await startSignIn(ctx, user)).methods).toEqual(["totp", "recovery", "passkey"]);

    const passkeyOnly = await ctx.signUp();
    await ctx.db
      .insert(passkeys)
      .values({ userId: passkeyOnly.id, credentialId: `cred-${passkeyOnly.id}`, publicKey: Buffer.from([4]), name: "Key" });
    await refreshSecondFactorFlag(ctx.db, passkeyOnly.id);
    const { challenge, methods } = await startSignIn(ctx, passkeyOnly);
    expect(methods).toEqual(["passkey"]);
    // No app: no six digits can complete it.
    expect((await secondStep(challenge, "123456")).status).toBe(401);
  });

  it("refuses a code accepted once already (no replay), while a later step's code still works", async () => {
    const user = await userWithApp();
    const code = await nextTotpCode(ctx, user.id, user.secret);
    const first = await startSignIn(ctx, user);
    expect((await secondStep(first.challenge, code)).status).toBe(200);

    const second = await startSignIn(ctx, user);
    const replay = await secondStep(second.challenge, code);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ message: "Invalid code" });
    // A code of an earlier step than the last one accepted is refused too.
    expect((await secondStep(second.challenge, totpCode(user.secret, ctx.clock.now(), -1))).status).toBe(401);
    // The sign-in stayed open: the next step's code completes it.
    ctx.clock.advance(30_000);
    expect((await secondStep(second.challenge, await nextTotpCode(ctx, user.id, user.secret))).status).toBe(200);
  });

  it("refuses codes outside one step either side of now", async () => {
    const user = await userWithApp();
    const { challenge } = await startSignIn(ctx, user);
    for (const steps of [-3, -2, 2, 3])
      expect((await secondStep(challenge, totpCode(user.secret, ctx.clock.now(), steps))).status).toBe(401);
    expect(stepAt(ctx.clock.now())).toBeGreaterThan(0);
  });

  it("accepts each recovery code once, in any letter case, and records its use", async () => {
    const user = await userWithApp();
    const [recovery] = user.recoveryCodes;
    const first = await startSignIn(ctx, user);
    const used = await secondStep(first.challenge, recovery!.toUpperCase());
    expect(used.status).toBe(200);
    ctx.noteSecret(used.body.token);
    const spent = await ctx.db
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, user.id), isNotNull(recoveryCodes.usedAt)));
    expect(spent).toHaveLength(1);
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "second_factor.recovery_code_used"), eq(auditEvents.actorId, user.id)));
    expect(event).toMatchObject({ companyId: null, targetId: String(user.id) });
    expect(JSON.stringify(event)).not.toContain(recovery!);

    const second = await startSignIn(ctx, user);
    const again = await secondStep(second.challenge, recovery!);
    expect(again.status).toBe(401);
    expect(again.body.message).toBe("Invalid code");
    // Another user's code is no code of this one.
    const other = await userWithApp();
    expect((await secondStep(second.challenge, other.recoveryCodes[0]!)).status).toBe(401);
    expect((await secondStep(second.challenge, user.recoveryCodes[1]!)).status).toBe(200);
  });

  it("answers 400 for a code that is neither six digits nor a recovery code, and for a missing challenge", async () => {
    const user = await userWithApp();
    const { challenge } = await startSignIn(ctx, user);
    for (const code of ["12345", "1234567", "12 456", "abcdef", "abcde-fghij-k", "", 123456]) {
      const response = await secondStep(challenge, code as string);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("Enter the 6-digit code from your app or a recovery code");
    }
    expect((await api().post("/api/auth/login/second-factor").send({ code: "123456" })).status).toBe(400);
    expect(
      (
        await api()
          .post("/api/auth/login/second-factor")
          .send({ challenge: "x".repeat(101), code: "123456" })
      ).status,
    ).toBe(400);
  });

  it("answers 401 for an unknown, an expired or a completed challenge, and never a session", async () => {
    const user = await userWithApp();
    const unknown = await secondStep("A".repeat(43), await nextTotpCode(ctx, user.id, user.secret));
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe("The sign-in has expired. Please sign in again.");

    const expiring = await startSignIn(ctx, user);
    ctx.clock.advance(5 * 60_000 + 1_000);
    const late = await secondStep(expiring.challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(late.status).toBe(401);
    expect(late.body).not.toHaveProperty("token");
    expect(late.headers["set-cookie"]).toBeUndefined();

    const { challenge } = await startSignIn(ctx, user);
    expect((await secondStep(challenge, await nextTotpCode(ctx, user.id, user.secret))).status).toBe(200);
    const twice = await secondStep(challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(twice.status).toBe(401);
    expect(twice.body.message).toBe("The sign-in has expired. Please sign in again.");
  });

  it("counts wrong codes against the account's sign-in limit: the 11th in a minute is 429, even with the right code", async () => {
    const user = await userWithApp();
    const { challenge } = await startSignIn(ctx, user);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) statuses.push((await secondStep(challenge, "000000")).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const limited = await secondStep(challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("60");
    // The account's password sign-in shares the limit.
    expect((await api().post("/api/auth/login").send({ username: user.username, password: user.password })).status).toBe(429);
    ctx.clock.advance(61_000);
    const fresh = await startSignIn(ctx, user);
    expect((await secondStep(fresh.challenge, await nextTotpCode(ctx, user.id, user.secret))).status).toBe(200);
  });

  it("counts wrong codes against the address's limit, together with wrong passwords", async () => {
    ctx.clock.advance(61_000);
    const user = await userWithApp();
    const { challenge } = await startSignIn(ctx, user);
    // 100 failures an address may make a minute: 96 wrong passwords of names nobody has (one each), and 4 wrong codes.
    const logins = await Promise.all(
      Array.from({ length: 96 }, (_, n) =>
        api()
          .post("/api/auth/login")
          .send({ username: `nobody${n}`, password: "wrong password" }),
      ),
    );
    expect(logins.every((response) => response.status === 401)).toBe(true);
    for (let attempt = 0; attempt < 4; attempt++) expect((await secondStep(challenge, "000000")).status).toBe(401);
    // Four failures of the account are far from its own limit of ten: the address's limit refuses the right code,
    // before it is counted as one of the sign-in's five tries.
    const limited = await secondStep(challenge, await nextTotpCode(ctx, user.id, user.secret));
    expect(limited.status).toBe(429);
    ctx.clock.advance(61_000);
    expect((await secondStep(challenge, await nextTotpCode(ctx, user.id, user.secret))).status).toBe(200);
  }, 90_000); // a hundred password checks

  it("leaves users without a second factor signing in in one step", async () => {
    const user = await ctx.signUp({ username: "onestep" });
    const response = await api().post("/api/auth/login").send({ username: "onestep", password: user.password });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, secondFactor: false, token: expect.any(String) });
    ctx.noteSecret(response.body.token);
    const [row] = await ctx.db.select({ flag: users.secondFactor }).from(users).where(eq(users.id, user.id));
    expect(row?.flag).toBe(false);
  });
});

describe("concurrent second steps", () => {
  it("lets one of two simultaneous uses of the same code through, across sign-ins", async () => {
    const user = await userWithApp();
    const code = await nextTotpCode(ctx, user.id, user.secret);
    const [a, b] = [await startSignIn(ctx, user), await startSignIn(ctx, user)];
    const answers = await Promise.all([secondStep(a.challenge, code), secondStep(b.challenge, code)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });

  it("lets one of two simultaneous uses of the same recovery code through", async () => {
    const user = await userWithApp();
    const [a, b] = [await startSignIn(ctx, user), await startSignIn(ctx, user)];
    const answers = await Promise.all([secondStep(a.challenge, user.recoveryCodes[0]!), secondStep(b.challenge, user.recoveryCodes[0]!)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });

  it("completes one sign-in once when its second step is sent twice at once", async () => {
    const user = await userWithApp();
    const { challenge } = await startSignIn(ctx, user);
    const answers = await Promise.all([secondStep(challenge, user.recoveryCodes[0]!), secondStep(challenge, user.recoveryCodes[1]!)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    for (const answer of answers) if (answer.body.token) ctx.noteSecret(answer.body.token);
  });
});
