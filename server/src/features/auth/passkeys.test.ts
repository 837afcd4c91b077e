import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import request from "supertest";
import { passkeyLimits } from "../../../../shared/second-factor";
import { auditEvents, passkeys, sessions } from "../../db/schema";
import { coseKey, SoftwareAuthenticator } from "../../testing/software-authenticator";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { passkeyFixtures } from "../../testing/passkey-fixtures";

const appUrl = "https://board.quorum.test";
const ctx = useTestContext({ mail: { from: "Quorum <board@quorum.test>", appUrl } });
const api = () => request(ctx.app);
const { proveSession, registerOptions, withPasskey, loginOptions, secondFactorOf } = passkeyFixtures(ctx, appUrl);

// Each test starts a minute later, so the failures one test provokes on purpose do not count against the next's limit.
beforeEach(() => ctx.clock.advance(2 * 60_000));

describe("passkeys", () => {
  it("registers a passkey, lists it, and signs in with it alone: the user and a token, a session with a second factor", async () => {
    const user = await ctx.signUp({ firstName: "Ada", lastName: "Lovelace" });
    const { options } = await registerOptions(user);
    expect(options).toMatchObject({
      rp: { id: "board.quorum.test", name: "Quorum" },
      user: { name: user.username, displayName: "Ada Lovelace" },
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    });
    const authenticator = new SoftwareAuthenticator({ origin: appUrl });
    const registered = await api()
      .post("/api/auth/passkeys")
      .set("Authorization", user.bearer)
      .send({ name: "  Work laptop ", response: authenticator.register(options) });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({
      id: expect.any(Number),
      name: "Work laptop",
      createdAt: ctx.clock.now().toISOString(),
      lastUsedAt: null,
    });
    const registeredAt = ctx.clock.now();
    expect(await secondFactorOf(user.id)).toBe(true);
    const [added] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, user.id), eq(auditEvents.action, "second_factor.passkey_added")));
    expect(added).toMatchObject({ companyId: null, targetType: "passkey", targetId: String(registered.body.id), chainKey: 0 });
    // The event carries the key's hash (hex SHA-256 of its COSE public key), as a certificate's signature shows the key.
    const credential = authenticator.credentials[0]!;
    expect(added?.details).toEqual({
      name: "Work laptop",
      credentialId: credential.id,
      publicKeySha256: createHash("sha256").update(coseKey(credential.publicKey)).digest("hex"),
    });

    const listed = await api().get("/api/auth/passkeys").set("Authorization", user.bearer);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([registered.body]);

    // The next registration excludes the passkey the user already has.
    expect((await registerOptions(user)).options.excludeCredentials).toEqual([
      expect.objectContaining({ id: authenticator.credentials[0]!.id, type: "public-key" }),
    ]);

    ctx.clock.advance(60_000);
    const { challenge, options: signInOptions } = await loginOptions();
    expect(signInOptions).toMatchObject({ rpId: "board.quorum.test", userVerification: "required" });
    expect(signInOptions.allowCredentials ?? []).toEqual([]);
    const signedIn = await api()
      .post("/api/auth/passkeys/login")
      .send({ challenge, response: authenticator.authenticate(signInOptions) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({
      id: user.id,
      username: user.username,
      secondFactor: true,
      token: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(signedIn.headers["set-cookie"]?.[0]).toMatch(/^quorum_session=/);
    const me = await api().get("/api/auth/user").set("Authorization", `Bearer ${signedIn.body.token}`);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
    const [session] = await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id)).orderBy(sessions.id);
    const newest = (await ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).at(-1);
    // The session that added the passkey, freshly proved, counts as having passed it from then on.
    expect(session?.secondFactorAt?.toISOString()).toBe(registeredAt.toISOString());
    expect(newest?.secondFactorAt?.toISOString()).toBe(ctx.clock.now().toISOString());

    const [used] = await ctx.db.select().from(passkeys).where(eq(passkeys.userId, user.id));
    expect(used?.counter).toBe(1);
    expect((await api().get("/api/auth/passkeys").set("Authorization", user.bearer)).body[0].lastUsedAt).toBe(
      ctx.clock.now().toISOString(),
    );
  });

  it("refuses a registration that answers no challenge of the caller, another origin or a spent challenge, with 400", async () => {
    const user = await ctx.signUp();
    const other = await ctx.signUp();
    const authenticator = new SoftwareAuthenticator({ origin: appUrl });
    const register = (who: SignedUp, response: unknown) =>
      api().post("/api/auth/passkeys").set("Authorization", who.bearer).send({ name: "Key", response });
    await proveSession(user);

    // Another user's open registration.
    const othersOptions = (await registerOptions(other)).options;
    const forOther = await register(user, authenticator.register(othersOptions));
    expect(forOther.status).toBe(400);
    expect(forOther.body).toEqual({ message: expect.any(String) });

    // A challenge the server never gave.
    const { options } = await registerOptions(user);
    expect((await register(user, authenticator.register(options, { challenge: "bm90LWEtY2hhbGxlbmdl" }))).status).toBe(400);

    // Signed for another site: the challenge is spent by the attempt, so the right answer afterwards is refused too.
    const phished = await register(user, authenticator.register(options, { origin: "https://evil.example" }));
    expect(phished.status).toBe(400);
    expect((await register(user, authenticator.register(options))).status).toBe(400);

    // An expired one.
    const late = await registerOptions(user);
    ctx.clock.advance(5 * 60_000 + 1);
    expect((await register(user, authenticator.register(late.options))).status).toBe(400);

    expect((await api().get("/api/auth/passkeys").set("Authorization", user.bearer)).body).toEqual([]);
    expect(await secondFactorOf(user.id)).toBe(false);
  });

  it("lists and removes only the caller's own passkeys; removing the last clears the second-factor flag", async () => {
    const owner = await ctx.signUp();
    const stranger = await ctx.signUp();
    const { passkey } = await withPasskey(owner, "Phone");
    const second = await withPasskey(owner, "Laptop");

    expect((await api().get("/api/auth/passkeys").set("Authorization", stranger.bearer)).body).toEqual([]);
    const foreign = await api().delete(`/api/auth/passkeys/${passkey.id}`).set("Authorization", stranger.bearer);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: expect.any(String) });
    expect(await ctx.db.select().from(passkeys).where(eq(passkeys.userId, owner.id))).toHaveLength(2);

    expect((await api().delete(`/api/auth/passkeys/${passkey.id}`).set("Authorization", owner.bearer)).status).toBe(204);
    expect(await secondFactorOf(owner.id)).toBe(true);
    expect((await api().delete(`/api/auth/passkeys/${passkey.id}`).set("Authorization", owner.bearer)).status).toBe(404);
    expect((await api().delete(`/api/auth/passkeys/${second.passkey.id}`).set("Authorization", owner.bearer)).status).toBe(204);
    expect(await secondFactorOf(owner.id)).toBe(false);
    const removed = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, owner.id), eq(auditEvents.action, "second_factor.passkey_removed")));
    expect(removed.map((event) => event.details)).toEqual([{ name: "Phone" }, { name: "Laptop" }]);
  });

  it(`refuses to start a passkey beyond the ${passkeyLimits.perUser} an account may have, with 409`, async () => {
    const user = await ctx.signUp();
    await ctx.db.insert(passkeys).values(
      Array.from({ length: passkeyLimits.perUser }, (_, index) => ({
        userId: user.id,
        credentialId: `credential-${user.id}-${index}`,
        publicKey: Buffer.from([index]),
        name: `Key ${index}`,
      })),
    );
    await proveSession(user);
    const refused = await api().post("/api/auth/passkeys/register-options").set("Authorization", user.bearer);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: expect.any(String) });
  });

  it("answers garbage with 400 or 401 and the error body, never a 500 or a session", async () => {
    const user = await ctx.signUp();
    const { authenticator } = await withPasskey(user);
    const { options } = await registerOptions(user);
    const good = authenticator.register(options);
    const b64 = (text: string) => Buffer.from(text).toString("base64url");
    const broken: unknown[] = [
      null,
      "text",
      {},
      { ...good, type: "other" },
      { ...good, response: { clientDataJSON: "!!!" } },
      { ...good, response: { clientDataJSON: b64("not json") } },
      { ...good, response: { clientDataJSON: b64(JSON.stringify({ challenge: 5 })) } },
      { ...good, response: { ...good.response, attestationObject: b64("garbage") } },
      { ...good, response: { ...good.response, clientDataJSON: "x".repeat(20_000) } },
      { ...good, id: "x".repeat(2000) },
      { ...good, response: { ...good.response, transports: Array(100).fill("usb") } },
    ];
    for (const response of broken) {
      const registered = await api().post("/api/auth/passkeys").set("Authorization", user.bearer).send({ name: "Key", response });
      expect([400], JSON.stringify(response).slice(0, 200)).toContain(registered.status);
      expect(registered.body).toMatchObject({ message: expect.any(String) });
    }
    for (const name of ["", " ", "x".repeat(passkeyLimits.name + 1), "two\nlines"]) {
      expect((await api().post("/api/auth/passkeys").set("Authorization", user.bearer).send({ name, response: good })).status).toBe(400);
    }

    const signIn = await loginOptions();
    const answer = authenticator.authenticate(signIn.options);
    const brokenLogins: unknown[] = [
      {},
      { challenge: signIn.challenge },
      { challenge: signIn.challenge, response: { ...answer, response: { ...answer.response, signature: b64("garbage") } } },
      { challenge: signIn.challenge, response: { ...answer, id: "unknown", rawId: "unknown" } },
      { challenge: "x".repeat(500), response: answer },
      { challenge: 5, response: answer },
    ];
    for (const body of brokenLogins) {
      const login = await api()
        .post("/api/auth/passkeys/login")
        .send(body as object);
      expect([400, 401]).toContain(login.status);
      expect(login.body).toMatchObject({ message: expect.any(String) });
      expect(login.body).not.toHaveProperty("token");
    }
    expect((await api().post("/api/auth/passkeys/login-options").send({ challenge: 5 })).status).toBe(400);
    expect((await api().delete("/api/auth/passkeys/abc").set("Authorization", user.bearer)).status).toBe(404);
  });

  it("writes no challenge into the log", async () => {
    const user = await ctx.signUp();
    const { authenticator } = await withPasskey(user);
    const { challenge, options } = await loginOptions();
    await api()
      .post("/api/auth/passkeys/login")
      .send({ challenge, response: authenticator.authenticate(options) });
    const secrets = [challenge, String(options.challenge), authenticator.credentials[0]!.id];
    expect(ctx.logs.filter((line) => secrets.some((secret) => line.includes(secret)))).toEqual([]);
  });
});
