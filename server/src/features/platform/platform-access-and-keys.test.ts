import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import request, { type Response } from "supertest";
import { maskedSecretUrl } from "../../../../shared/platform";
import { createApp } from "../../app";
import { users } from "../../db/schema";
import { SecretDecryptionError, decryptSecret } from "../../integrations/secrets";
import { findEnabledServiceCredentials } from "../../integrations/service-credentials";
import { withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { usePlatformContext } from "../../testing/platform-fixtures";

const { ctx, accounts, api, asAdmin, uniqueServiceName, freshKey, storedRow } = usePlatformContext();

describe("who may call /api/platform/settings", () => {
  const routes = (id: number) =>
    [
      { method: "get", path: "/api/platform/settings" },
      { method: "post", path: "/api/platform/settings", body: { serviceName: "Sneaky", serviceKey: "sk-sneaky-123456" } },
      { method: "put", path: `/api/platform/settings/${id}`, body: { isEnabled: false } },
      { method: "delete", path: `/api/platform/settings/${id}` },
    ] as const;

  it("answers 401 to signed-out callers and 403 to signed-in users who are not platform admins, changing nothing", async () => {
    const created = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: freshKey() });
    expect(created.status).toBe(201);
    const before = await storedRow(created.body.id);

    for (const route of routes(created.body.id)) {
      const call = () => {
        const pending = api()[route.method](route.path);
        return "body" in route ? pending.send(route.body) : pending;
      };
      const signedOut = await call();
      expect(signedOut.status, `${route.method} ${route.path} signed out`).toBe(401);
      expect(signedOut.body).toEqual({ message: expect.any(String) });

      const pending = api()[route.method](route.path).set("Authorization", accounts.plain.bearer);
      const notAdmin = "body" in route ? await pending.send(route.body) : await pending;
      expect(notAdmin.status, `${route.method} ${route.path} as a company founder`).toBe(403);
      expect(notAdmin.body).toEqual({ message: "Platform administrators only" });
    }

    expect(await storedRow(created.body.id)).toEqual(before);
    const names = (await asAdmin.list()).body.map((service: { serviceName: string }) => service.serviceName);
    expect(names).not.toContain("Sneaky");
  });

  it("refuses a platform admin whose rights were revoked, from the next request on", async () => {
    const other = await ctx.signUp();
    await ctx.db.update(users).set({ isPlatformAdmin: true }).where(eq(users.id, other.id));
    expect((await api().get("/api/platform/settings").set("Authorization", other.bearer)).status).toBe(200);
    await ctx.db.update(users).set({ isPlatformAdmin: false }).where(eq(users.id, other.id));
    // The change reaches the instance's session cache as its notification arrives (on Postgres, a moment later).
    await expect
      .poll(async () => (await api().get("/api/platform/settings").set("Authorization", other.bearer)).status, { timeout: 2000 })
      .toBe(403);
  });
});

describe("keys stay secret", () => {
  it("stores the key encrypted, answers it masked with hasKey, and never lets it out in a body or a log line", async () => {
    const key = freshKey();
    const secondKey = freshKey();
    const name = uniqueServiceName("OpenAI-like");
    const responses: Response[] = [];
    const keep = (response: Response) => {
      responses.push(response);
      return response;
    };

    const created = keep(
      await asAdmin.create({
        serviceName: name,
        serviceKey: key,
        serviceUrl: "https://api.example.com/v1",
        description: "Agenda generation",
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      serviceName: name,
      serviceKey: `${key.slice(0, 8)}…`,
      hasKey: true,
      serviceUrl: "https://api.example.com/v1",
      serviceUrlIsSecret: false,
      isEnabled: true,
      description: "Agenda generation",
      createdAt: ctx.clock.now().toISOString(),
      updatedAt: ctx.clock.now().toISOString(),
    });

    const row = await storedRow(created.body.id);
    expect(row.serviceKeyEncrypted).not.toContain(key);
    expect(row.serviceKeyEncrypted).not.toContain(key.slice(8));
    expect(row.serviceKeyEncrypted).toMatch(/^v1\./);
    expect(row.serviceKeyPreview).toBe(`${key.slice(0, 8)}…`);
    expect(decryptSecret(row.serviceKeyEncrypted, ctx.deps.appSecret)).toBe(key);

    keep(await asAdmin.list());
    // Every other answer a key could travel in: a duplicate, a bad body carrying a key, updates, deletion.
    keep(await asAdmin.create({ serviceName: name.toUpperCase(), serviceKey: key }));
    keep(await asAdmin.create({ serviceName: "x", serviceKey: key }));
    keep(await asAdmin.update(created.body.id, { serviceKey: secondKey, description: "rotated" }));
    keep(await asAdmin.update(created.body.id, { serviceKey: "" }));
    keep(await asAdmin.update(created.body.id, { serviceName: "y", serviceKey: key }));
    keep(await asAdmin.list());
    keep(
      await api().post("/api/platform/settings").set("Authorization", accounts.plain.bearer).send({ serviceName: "Leak", serviceKey: key }),
    );
    keep(await asAdmin.remove(created.body.id));

    expect(responses.map((response) => response.status)).toEqual([201, 200, 409, 400, 200, 200, 400, 200, 403, 204]);
    for (const secret of [key, secondKey]) {
      const tail = secret.slice(8);
      for (const response of responses) {
        expect(response.text ?? "").not.toContain(tail);
        expect(JSON.stringify(response.headers)).not.toContain(tail);
      }
      for (const line of ctx.logs) expect(line).not.toContain(tail);
    }
    expect(ctx.logs.length).toBeGreaterThan(0);
  });

  it("uses a fresh IV per write: the same key stored twice gives two different ciphertexts", async () => {
    const key = freshKey();
    const first = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: key });
    const second = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: key });
    const [a, b] = [await storedRow(first.body.id), await storedRow(second.body.id)];
    expect(a.serviceKeyEncrypted).not.toBe(b.serviceKeyEncrypted);
    expect(decryptSecret(a.serviceKeyEncrypted, ctx.deps.appSecret)).toBe(key);
    expect(decryptSecret(b.serviceKeyEncrypted, ctx.deps.appSecret)).toBe(key);
  });

  it("masks short keys with fewer characters", async () => {
    const created = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: "abcdef" });
    expect(created.body.serviceKey).toBe("ab…");
  });

  it("fails to decrypt under a wrong APP_SECRET with a clear error, while the lists (which never decrypt) keep working", async () => {
    const key = freshKey();
    const name = uniqueServiceName("Rotated");
    await asAdmin.create({ serviceName: name, serviceKey: key, serviceUrl: "https://llm.example.com" });

    await expect(findEnabledServiceCredentials(ctx.db, ctx.deps.appSecret, name.toLowerCase())).resolves.toEqual({
      serviceName: name,
      key,
      url: "https://llm.example.com",
    });
    const wrongSecret = randomBytes(32).toString("base64url");
    const attempt = findEnabledServiceCredentials(ctx.db, wrongSecret, name);
    await expect(attempt).rejects.toBeInstanceOf(SecretDecryptionError);
    await expect(findEnabledServiceCredentials(ctx.db, wrongSecret, name)).rejects.toThrow(/APP_SECRET/);

    // The same database served by an app started with another APP_SECRET still lists (masked, no decryption).
    const rotatedApp = createApp({ ...ctx.deps, appSecret: wrongSecret });
    const list = await request(rotatedApp).get("/api/platform/settings").set("Authorization", accounts.admin.bearer);
    expect(list.status).toBe(200);
    expect(list.body).toContainEqual(expect.objectContaining({ serviceName: name, serviceKey: `${key.slice(0, 8)}…`, hasKey: true }));
  });

  it("finds only an enabled service", async () => {
    const name = uniqueServiceName("Paused");
    const created = await asAdmin.create({ serviceName: name, serviceKey: freshKey(), isEnabled: false });
    expect(created.body.isEnabled).toBe(false);
    expect(await findEnabledServiceCredentials(ctx.db, ctx.deps.appSecret, name)).toBeNull();
  });

  it("keeps the messaging service's auth token (its URL field) encrypted and masked, like a key", async () => {
    const existing = await asAdmin.list();
    for (const service of existing.body as { id: number; serviceName: string }[]) {
      if (service.serviceName.toLowerCase() === "twilio") await asAdmin.remove(service.id);
    }
    const authToken = `auth-${randomBytes(16).toString("hex")}`;
    const created = await asAdmin.create({
      serviceName: "Twilio",
      serviceKey: `AC${randomBytes(16).toString("hex")}`,
      serviceUrl: authToken,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ serviceUrl: maskedSecretUrl, serviceUrlIsSecret: true });
    expect(created.text).not.toContain(authToken);
    const row = await storedRow(created.body.id);
    expect(row.serviceUrl).not.toContain(authToken);

    // The mask sent back keeps the token; the credentials reader decrypts it for server-side use.
    const kept = await asAdmin.update(created.body.id, { serviceUrl: maskedSecretUrl, description: "SMS" });
    expect(kept.status).toBe(200);
    expect((await storedRow(created.body.id)).serviceUrl).toBe(row.serviceUrl);
    expect((await findEnabledServiceCredentials(ctx.db, ctx.deps.appSecret, "twilio"))?.url).toBe(authToken);

    const list = await asAdmin.list();
    expect(list.text).not.toContain(authToken);
    await asAdmin.remove(created.body.id);
  });
});

describe("changing service keys needs a recent second factor", () => {
  const secondFactorMessage =
    "Changing service keys needs a sign-in with a second factor in the last 12 hours. Sign out and sign in again with your second factor.";
  const expectRefused = (response: Response) => {
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: secondFactorMessage, code: "second_factor_required" });
  };
  const writesAs = (bearer: string, id: number) => [
    () =>
      api().post("/api/platform/settings").set("Authorization", bearer).send({ serviceName: uniqueServiceName(), serviceKey: freshKey() }),
    () => api().put(`/api/platform/settings/${id}`).set("Authorization", bearer).send({ serviceKey: freshKey() }),
    () => api().delete(`/api/platform/settings/${id}`).set("Authorization", bearer),
  ];

  it("refuses a platform admin signed in with a password alone, who may still read them", async () => {
    const created = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: freshKey() });
    const before = await storedRow(created.body.id);
    const passwordOnly = await ctx.signUp();
    await ctx.db.update(users).set({ isPlatformAdmin: true }).where(eq(users.id, passwordOnly.id));
    for (const write of writesAs(passwordOnly.bearer, created.body.id)) expectRefused(await write());
    expect(await storedRow(created.body.id)).toEqual(before);
    expect((await api().get("/api/platform/settings").set("Authorization", passwordOnly.bearer)).status).toBe(200);

    // Having a factor is not enough: this very session must have passed it. (A session signed in before the factor
    // was added never did.)
    const login = await api().post("/api/auth/login").send({ username: passwordOnly.username, password: passwordOnly.password });
    ctx.noteSecret(login.body.token);
    const earlier = `Bearer ${login.body.token}`;
    const withFactor = await withSecondFactorSession(ctx, passwordOnly);
    for (const write of writesAs(earlier, created.body.id)) expectRefused(await write());
    const [create, update, remove] = writesAs(withFactor.bearer, created.body.id);
    expect((await create!()).status).toBe(201);
    expect((await update!()).status).toBe(200);
    expect((await remove!()).status).toBe(204);
  });

  it("accepts a session that passed one until 12 hours after, and refuses it from then on", async () => {
    const fresh = await withSecondFactorSession(ctx, await ctx.signUp());
    await ctx.db.update(users).set({ isPlatformAdmin: true }).where(eq(users.id, fresh.id));
    const created = await api()
      .post("/api/platform/settings")
      .set("Authorization", fresh.bearer)
      .send({ serviceName: uniqueServiceName(), serviceKey: freshKey() });
    expect(created.status).toBe(201);

    ctx.clock.advance(12 * 60 * 60_000);
    const [atTwelveHours] = writesAs(fresh.bearer, created.body.id).slice(1);
    expect((await atTwelveHours!()).status).toBe(200);
    ctx.clock.advance(60_000);
    for (const write of writesAs(fresh.bearer, created.body.id)) expectRefused(await write());
    expect((await api().get("/api/platform/settings").set("Authorization", fresh.bearer)).status).toBe(200);
  });
});
