import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import request, { type Response } from "supertest";
import { maskedSecretUrl } from "../../../../shared/platform";
import { createApp } from "../../app";
import { auditEvents, platformServices, users } from "../../db/schema";
import { SecretDecryptionError, decryptSecret } from "../../integrations/secrets";
import { findEnabledServiceCredentials } from "../../integrations/service-credentials";
import { createCompany } from "../../testing/factories";
import { createTestContext, type SignedUp, type TestContext } from "../../testing/test-context";

let ctx: TestContext;
let admin: SignedUp;
let plain: SignedUp;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.signUp({ username: "platformboss" }); // the first account is the platform admin
  plain = await ctx.signUp();
  // A founder of a company is still no platform admin.
  await createCompany(ctx.db, { founderId: plain.id });
});
afterAll(() => ctx.close());

const api = () => request(ctx.app);
const asAdmin = {
  list: () => api().get("/api/platform/settings").set("Authorization", admin.bearer),
  create: (body: unknown) =>
    api()
      .post("/api/platform/settings")
      .set("Authorization", admin.bearer)
      .send(body as object),
  update: (id: number | string, body: unknown) =>
    api()
      .put(`/api/platform/settings/${id}`)
      .set("Authorization", admin.bearer)
      .send(body as object),
  remove: (id: number | string) => api().delete(`/api/platform/settings/${id}`).set("Authorization", admin.bearer),
};

let nameCounter = 0;
const uniqueServiceName = (prefix = "Service") => `${prefix} ${++nameCounter}${randomBytes(2).toString("hex")}`;
const freshKey = () => `sk-live-${randomBytes(24).toString("hex")}`;

async function storedRow(id: number) {
  const [row] = await ctx.db.select().from(platformServices).where(eq(platformServices.id, id));
  if (!row) throw new Error(`no row ${id}`);
  return row;
}

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

      const pending = api()[route.method](route.path).set("Authorization", plain.bearer);
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
    expect((await api().get("/api/platform/settings").set("Authorization", other.bearer)).status).toBe(403);
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
    keep(await api().post("/api/platform/settings").set("Authorization", plain.bearer).send({ serviceName: "Leak", serviceKey: key }));
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
    const list = await request(rotatedApp).get("/api/platform/settings").set("Authorization", admin.bearer);
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

describe("create and update rules", () => {
  it("keeps the stored key when an update sends an empty or the masked key, replaces it otherwise, and maintains updatedAt", async () => {
    const key = freshKey();
    const created = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: key, description: "first" });
    const id: number = created.body.id;
    const firstStored = (await storedRow(id)).serviceKeyEncrypted;

    ctx.clock.advance(60_000);
    const emptyKey = await asAdmin.update(id, {
      serviceName: created.body.serviceName,
      serviceKey: "",
      description: "second",
      isEnabled: true,
    });
    expect(emptyKey.status).toBe(200);
    expect(emptyKey.body).toMatchObject({
      description: "second",
      serviceKey: created.body.serviceKey,
      updatedAt: ctx.clock.now().toISOString(),
    });
    expect(emptyKey.body.createdAt).toBe(created.body.createdAt);
    expect((await storedRow(id)).serviceKeyEncrypted).toBe(firstStored);

    ctx.clock.advance(60_000);
    const maskedKey = await asAdmin.update(id, { serviceKey: created.body.serviceKey, isEnabled: false });
    expect(maskedKey.status).toBe(200);
    expect(maskedKey.body).toMatchObject({ isEnabled: false, description: "second", updatedAt: ctx.clock.now().toISOString() });
    expect(decryptSecret((await storedRow(id)).serviceKeyEncrypted, ctx.deps.appSecret)).toBe(key);

    const newKey = freshKey();
    const replaced = await asAdmin.update(id, { serviceKey: newKey });
    expect(replaced.body.serviceKey).toBe(`${newKey.slice(0, 8)}…`);
    expect(decryptSecret((await storedRow(id)).serviceKeyEncrypted, ctx.deps.appSecret)).toBe(newKey);

    // Nothing changed: nothing written, updatedAt stays.
    const before = await storedRow(id);
    ctx.clock.advance(60_000);
    const unchanged = await asAdmin.update(id, { serviceName: created.body.serviceName, serviceKey: "", isEnabled: false });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body.updatedAt).toBe(before.updatedAt.toISOString());
  });

  it("refuses a masked key that is not the stored one (400), so a mask is never stored as a key", async () => {
    const created = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: freshKey() });
    const response = await asAdmin.update(created.body.id, { serviceKey: "sk-other…" });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/full service key/);
    const onCreate = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: "sk-abcde…" });
    expect(onCreate.status).toBe(400);
  });

  it("clears URL and description with null or empty strings, and keeps them when absent", async () => {
    const created = await asAdmin.create({
      serviceName: uniqueServiceName(),
      serviceKey: freshKey(),
      serviceUrl: "https://x.example.com",
      description: "d",
    });
    const kept = await asAdmin.update(created.body.id, { isEnabled: false });
    expect(kept.body).toMatchObject({ serviceUrl: "https://x.example.com", description: "d" });
    const cleared = await asAdmin.update(created.body.id, { serviceUrl: "", description: null });
    expect(cleared.body).toMatchObject({ serviceUrl: null, description: null });
  });

  it("trims names and refuses a duplicate name in any letter case with 409, on create and on rename", async () => {
    const name = uniqueServiceName("SendGrid");
    const created = await asAdmin.create({ serviceName: `  ${name}  `, serviceKey: freshKey() });
    expect(created.body.serviceName).toBe(name);

    const duplicate = await asAdmin.create({ serviceName: name.toLowerCase(), serviceKey: freshKey() });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({ message: `A service named "${name.toLowerCase()}" already exists` });

    const other = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: freshKey() });
    const rename = await asAdmin.update(other.body.id, { serviceName: name.toUpperCase() });
    expect(rename.status).toBe(409);

    // Changing only the letter case of its own name is allowed.
    const recase = await asAdmin.update(created.body.id, { serviceName: name.toUpperCase() });
    expect(recase.status).toBe(200);
    expect(recase.body.serviceName).toBe(name.toUpperCase());
  });

  it("lets exactly one of three simultaneous creates with the same name win; the other gets 409", async () => {
    const name = uniqueServiceName("Race");
    const results = await Promise.all([
      asAdmin.create({ serviceName: name, serviceKey: freshKey() }),
      asAdmin.create({ serviceName: name.toLowerCase(), serviceKey: freshKey() }),
      asAdmin.create({ serviceName: name.toUpperCase(), serviceKey: freshKey() }),
    ]);
    expect(results.map((response) => response.status).sort()).toEqual([201, 409, 409]);
    const rows = (await asAdmin.list()).body.filter(
      (service: { serviceName: string }) => service.serviceName.toLowerCase() === name.toLowerCase(),
    );
    expect(rows).toHaveLength(1);
  });

  it("answers bad bodies with 400 and the shared schemas' messages", async () => {
    const empty = await asAdmin.create({});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([
      { path: "serviceName", message: expect.any(String) },
      { path: "serviceKey", message: expect.any(String) },
    ]);

    const blank = await asAdmin.create({ serviceName: "   ", serviceKey: "   " });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({
      message: "Service name must be at least 2 characters.",
      errors: [
        { path: "serviceName", message: "Service name must be at least 2 characters." },
        { path: "serviceKey", message: "Service key is required." },
      ],
    });

    const short = await asAdmin.create({ serviceName: "A", serviceKey: "k" });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe("Service name must be at least 2 characters.");

    const wrongTypes = await asAdmin.create({ serviceName: "Typed", serviceKey: "k-123", isEnabled: "yes", serviceUrl: 5 });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.errors.map((error: { path: string }) => error.path).sort()).toEqual(["isEnabled", "serviceUrl"]);

    const tooLong = await asAdmin.create({ serviceName: "L".repeat(101), serviceKey: "k-123" });
    expect(tooLong.status).toBe(400);

    const malformed = await api()
      .post("/api/platform/settings")
      .set("Authorization", admin.bearer)
      .set("Content-Type", "application/json")
      .send('{"serviceName": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: "Malformed JSON in request body" });

    const array = await asAdmin.create([{ serviceName: "Arr", serviceKey: "k-123" }]);
    expect(array.status).toBe(400);

    const created = await asAdmin.create({ serviceName: uniqueServiceName(), serviceKey: freshKey() });
    const badUpdate = await asAdmin.update(created.body.id, { serviceName: "z" });
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body.message).toBe("Service name must be at least 2 characters.");
    const badEnabled = await asAdmin.update(created.body.id, { isEnabled: "no" });
    expect(badEnabled.status).toBe(400);
  });

  it("answers 404 for an update or a deletion of a service that does not exist", async () => {
    for (const id of ["999999", "abc", "0"]) {
      expect((await asAdmin.update(id, { isEnabled: false })).status).toBe(404);
      expect((await asAdmin.remove(id)).status).toBe(404);
    }
  });
});

describe("list, delete and the audit trail", () => {
  it("lists services in the order they were added and removes one with 204", async () => {
    const first = await asAdmin.create({ serviceName: uniqueServiceName("Alpha"), serviceKey: freshKey() });
    const second = await asAdmin.create({ serviceName: uniqueServiceName("Beta"), serviceKey: freshKey() });
    const ids = (await asAdmin.list()).body.map((service: { id: number }) => service.id);
    expect(ids.indexOf(first.body.id)).toBeLessThan(ids.indexOf(second.body.id));

    expect((await asAdmin.remove(first.body.id)).status).toBe(204);
    const after = (await asAdmin.list()).body.map((service: { id: number }) => service.id);
    expect(after).not.toContain(first.body.id);
    expect(after).toContain(second.body.id);
    expect((await asAdmin.remove(first.body.id)).status).toBe(404);
  });

  it("writes who did what to which service and when, never the key", async () => {
    const key = freshKey();
    const name = uniqueServiceName("Audited");
    const created = await asAdmin.create({ serviceName: name, serviceKey: key });
    const id = String(created.body.id);
    ctx.clock.advance(1000);
    await asAdmin.update(created.body.id, { serviceKey: freshKey(), isEnabled: false });
    ctx.clock.advance(1000);
    await asAdmin.remove(created.body.id);

    const events = await ctx.db.select().from(auditEvents).where(eq(auditEvents.targetId, id));
    const mine = events.filter((event) => event.targetType === "platform_service").sort((a, b) => a.id - b.id);
    expect(mine.map((event) => [event.action, event.actorId])).toEqual([
      ["platform_service.created", admin.id],
      ["platform_service.updated", admin.id],
      ["platform_service.deleted", admin.id],
    ]);
    expect(mine[1]!.details).toMatchObject({ serviceName: name, changed: ["serviceKey", "isEnabled"], isEnabled: false });
    expect(mine[2]!.createdAt.getTime() - mine[0]!.createdAt.getTime()).toBe(2000);
    expect(JSON.stringify(mine)).not.toContain(key.slice(8));
  });

  it("writes no audit event for a refused change", async () => {
    const before = await ctx.db.select().from(auditEvents);
    await api().post("/api/platform/settings").set("Authorization", plain.bearer).send({ serviceName: "Nope", serviceKey: "k-123" });
    await asAdmin.create({ serviceName: "N", serviceKey: "k" });
    expect(await ctx.db.select().from(auditEvents)).toHaveLength(before.length);
  });
});
