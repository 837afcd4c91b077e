import { eq } from "drizzle-orm";
import { auditEvents } from "../../db/schema";
import { decryptSecret } from "../../integrations/secrets";
import { usePlatformContext } from "../../testing/platform-fixtures";

const { ctx, accounts, api, asAdmin, uniqueServiceName, freshKey, storedRow } = usePlatformContext();

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
    // Clearing the URL moves the service to its default address (or none): like any new address, it needs the key again.
    const keyless = await asAdmin.update(created.body.id, { serviceUrl: "", description: null });
    expect(keyless.status).toBe(400);
    expect(keyless.body).toEqual({ message: "Enter the key again for the new address" });
    const cleared = await asAdmin.update(created.body.id, { serviceUrl: "", description: null, serviceKey: freshKey() });
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
      .set("Authorization", accounts.admin.bearer)
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
      ["platform_service.created", accounts.admin.id],
      ["platform_service.updated", accounts.admin.id],
      ["platform_service.deleted", accounts.admin.id],
    ]);
    expect(mine[1]!.details).toMatchObject({ serviceName: name, changed: ["serviceKey", "isEnabled"], isEnabled: false });
    expect(mine[2]!.createdAt.getTime() - mine[0]!.createdAt.getTime()).toBe(2000);
    expect(JSON.stringify(mine)).not.toContain(key.slice(8));
  });

  it("writes no audit event for a refused change", async () => {
    const before = await ctx.db.select().from(auditEvents);
    await api()
      .post("/api/platform/settings")
      .set("Authorization", accounts.plain.bearer)
      .send({ serviceName: "Nope", serviceKey: "k-123" });
    await asAdmin.create({ serviceName: "N", serviceKey: "k" });
    expect(await ctx.db.select().from(auditEvents)).toHaveLength(before.length);
  });
});
