import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { auditEvents, mailOutbox, platformServices, users } from "../../db/schema";
import { AiServiceError, completeChat, resolveAiConfig } from "../../integrations/ai-chat";
import { encryptSecret } from "../../integrations/secrets";
import { startTestSmtp } from "../../testing/test-smtp";
import { withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { platformFixtures } from "../../testing/platform-fixtures";

/*
 * What a platform admin may point a service at, what happens to its key when the address changes, and who hears of
 * each change. The names below never reach a real resolver: checks at save time need none, and the AI calls are
 * answered in-process.
 */
const oldAi = "https://old-ai.test/v1";
const newAi = "https://new-ai.test/v1";
const seen: { url: string; authorization: string | null }[] = [];
const answer = async ({ request }: { request: Request }) => {
  seen.push({ url: request.url, authorization: request.headers.get("authorization") });
  return HttpResponse.json({
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [{ index: 0, message: { role: "assistant", content: "ok", refusal: null }, finish_reason: "stop", logprobs: null }],
  });
};
const mockAi = setupServer(http.post(`${oldAi}/chat/completions`, answer), http.post(`${newAi}/chat/completions`, answer));

const ctx = useTestContext({
  outbound: {
    // The test SMTP server (for the admins' mails), and a "local AI server" that may use http:// and private addresses.
    allowedHosts: ["127.0.0.1", "local-ai.test:11434"],
    resolve: async () => {
      throw new Error("no name is resolved in this file");
    },
  },
});
let admin: SignedUp;
let otherAdmin: SignedUp;
let unprovedAdmin: SignedUp;
beforeAll(async () => {
  admin = await withSecondFactorSession(ctx, await ctx.signUp({ username: "firstboss" }));
  otherAdmin = await ctx.signUp({ username: "secondboss" });
  unprovedAdmin = await ctx.signUp({ username: "unproved", confirmAddress: false });
  for (const user of [otherAdmin, unprovedAdmin]) await ctx.db.update(users).set({ isPlatformAdmin: true }).where(eq(users.id, user.id));
  mockAi.listen({
    onUnhandledRequest: (req, print) => {
      if (new URL(req.url).hostname !== "127.0.0.1") print.error();
    },
  });
});
afterEach(() => {
  seen.length = 0;
});
afterAll(() => {
  mockAi.close();
});

const { asAdmin, freshKey, uniqueServiceName, storedRow } = platformFixtures(ctx, () => admin.bearer);

describe("service addresses", () => {
  it("refuses a URL that points inside, or is not https://, with a 400 that says why, storing nothing", async () => {
    const before = (await asAdmin.list()).body;
    const refused: [string, string][] = [
      ["OpenAI", "http://169.254.169.254/latest/meta-data/"],
      ["OpenAI", "https://169.254.169.254/latest/meta-data/"],
      ["Storage", "https://10.0.0.5:6379/bucket"],
      ["Custom", "https://127.0.0.2:5432"], // 127.0.0.1 itself is listed in this file, for its SMTP server
      ["Custom", "https://0.0.0.0:5432"],
      ["OpenAI", "https://[::1]/v1"],
      ["OpenAI", "http://api.example.com/v1"],
      ["OpenAI", "http://local-ai.test:8080/v1"],
      ["SendGrid", "smtp://apikey@10.0.0.5:25"],
      ["SendGrid", "smtp://apikey@192.168.1.10"],
      ["SendGrid", "https://api.sendgrid.com"],
    ];
    for (const [serviceName, serviceUrl] of refused) {
      const response = await asAdmin.create({ serviceName, serviceKey: freshKey(), serviceUrl });
      expect(response.status, serviceUrl).toBe(400);
      expect(response.body.message, serviceUrl).toMatch(/https:\/\/|private or local|smtp/);
    }
    expect((await asAdmin.list()).body).toEqual(before);
  });

  it("accepts https://, http:// for an allow-listed host, smtp:// to a public host, and any messaging token", async () => {
    const accepted: [string, string][] = [
      ["OpenAI", "https://api.example.com/v1"],
      ["OpenAI", "http://local-ai.test:11434/v1"],
      ["SendGrid", "smtp://apikey@smtp.example.com:587"],
      ["Twilio", "http://10.0.0.5/looks-like-a-url-but-is-a-token"],
    ];
    for (const [serviceName, serviceUrl] of accepted) {
      const response = await asAdmin.create({ serviceName, serviceKey: freshKey(), serviceUrl });
      expect(response.status, serviceUrl).toBe(201);
      expect((await asAdmin.remove(response.body.id)).status).toBe(204);
    }
  });

  it("refuses an update to an inside address, and a rename that would make the kept URL one the new kind refuses", async () => {
    const created = await asAdmin.create({
      serviceName: uniqueServiceName("Custom"),
      serviceKey: freshKey(),
      serviceUrl: "https://x.example.com",
    });
    const before = await storedRow(created.body.id);
    const inside = await asAdmin.update(created.body.id, { serviceUrl: "https://10.0.0.5:9000", serviceKey: freshKey() });
    expect(inside.status).toBe(400);
    const toSmtp = await asAdmin.update(created.body.id, { serviceName: "SendGrid" });
    expect(toSmtp.status).toBe(400);
    expect(toSmtp.body).toEqual({ message: "The e-mail service URL must start with smtp:// or smtps://" });
    expect(await storedRow(created.body.id)).toEqual(before);
    await asAdmin.remove(created.body.id);
  });
});

describe("a new address needs the key again", () => {
  const ask = async () => {
    const config = await resolveAiConfig(ctx.deps);
    if (!config) throw new Error("no AI configured");
    return completeChat(config, [{ role: "user", content: "Hello" }]);
  };

  it("refuses a new URL without a new key (400), so the stored AI key never goes to it; with one, only the new key does", async () => {
    const oldKey = freshKey();
    const created = await asAdmin.create({ serviceName: "OpenAI", serviceKey: oldKey, serviceUrl: oldAi });
    expect(created.status).toBe(201);
    const before = await storedRow(created.body.id);

    const keyless = await asAdmin.update(created.body.id, { serviceUrl: newAi });
    expect(keyless.status).toBe(400);
    expect(keyless.body).toEqual({ message: "Enter the key again for the new address" });
    // The masked key, as the API answers it, is no key entered again.
    const masked = await asAdmin.update(created.body.id, { serviceUrl: newAi, serviceKey: created.body.serviceKey });
    expect(masked.status).toBe(400);
    expect(await storedRow(created.body.id)).toEqual(before);

    await ask();
    expect(seen).toEqual([{ url: `${oldAi}/chat/completions`, authorization: `Bearer ${oldKey}` }]);

    const newKey = freshKey();
    const moved = await asAdmin.update(created.body.id, { serviceUrl: newAi, serviceKey: newKey });
    expect(moved.status).toBe(200);
    await ask();
    expect(seen.slice(1)).toEqual([{ url: `${newAi}/chat/completions`, authorization: `Bearer ${newKey}` }]);
    expect(seen.filter((request) => request.url.startsWith(newAi) && request.authorization?.includes(oldKey))).toEqual([]);
    await asAdmin.remove(created.body.id);
  });
});

describe("a URL stored before these rules", () => {
  it("is refused at call time, before any request leaves, even where fetch is intercepted in-process", async () => {
    const key = freshKey();
    // Straight into the table, as a URL saved by an older version would be.
    const [row] = await ctx.db
      .insert(platformServices)
      .values({
        serviceName: "OpenAI",
        serviceKeyEncrypted: encryptSecret(key, ctx.deps.appSecret),
        serviceKeyPreview: "sk-live-…",
        serviceUrl: "http://169.254.169.254/v1",
      })
      .returning();
    try {
      const config = await resolveAiConfig(ctx.deps);
      const failure = await completeChat(config!, [{ role: "user", content: "Hello" }]).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AiServiceError);
      expect(failure).toMatchObject({ failure: "refused-address" });
      expect(seen).toEqual([]);
    } finally {
      await ctx.db.delete(platformServices).where(eq(platformServices.id, row!.id));
    }
  });
});

describe("who hears of a change", () => {
  it("mails every proved platform admin of each create, update, key change and delete, and joins the platform's chain, never with the key", async () => {
    const smtp = await startTestSmtp();
    try {
      // Straight into the table: the mail service itself is not a change the admins are told of here.
      await smtp.configure(ctx);
      await smtp.deliver(ctx);
      const firstKey = freshKey();
      const secondKey = freshKey();
      const name = uniqueServiceName("Told");
      const created = await asAdmin.create({ serviceName: name, serviceKey: firstKey, serviceUrl: "https://told.example.com" });
      await asAdmin.update(created.body.id, { description: "Moved", isEnabled: false });
      await asAdmin.update(created.body.id, { serviceKey: secondKey });
      await asAdmin.remove(created.body.id);

      const queued = await ctx.db.select().from(mailOutbox);
      const told = queued.filter((row) => {
        const message = row.message as { type: string; event?: string };
        return message.type === "platform-service" && message.event?.includes(name);
      });
      expect(told.map((row) => row.userId).sort()).toEqual(
        [admin.id, admin.id, admin.id, admin.id, otherAdmin.id, otherAdmin.id, otherAdmin.id, otherAdmin.id].sort(),
      );
      expect(told.some((row) => row.userId === unprovedAdmin.id)).toBe(false);

      const mails = (await smtp.deliver(ctx)).filter(
        (mail) => mail.subject === "A platform service was changed on Quorum" && mail.text.includes(name),
      );
      expect(mails).toHaveLength(8);
      const texts = mails.filter((mail) => mail.to.includes(otherAdmin.email)).map((mail) => mail.text.split("\n")[0]);
      expect(texts).toEqual([
        expect.stringContaining(`firstboss added the service “${name}”.`),
        expect.stringContaining(`firstboss updated the service “${name}” (changed: description, isEnabled).`),
        expect.stringContaining(`firstboss updated the service “${name}” (changed: serviceKey).`),
        expect.stringContaining(`firstboss removed the service “${name}”.`),
      ]);

      const events = await ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.targetId, String(created.body.id)));
      const mine = events.filter((event) => event.targetType === "platform_service");
      expect(mine).toHaveLength(4);
      expect(mine.every((event) => event.chainKey === 0 && event.companyId === null)).toBe(true);

      const everything = JSON.stringify([queued, mails, mine]);
      for (const key of [firstKey, secondKey]) expect(everything).not.toContain(key.slice(8));
    } finally {
      await ctx.db.delete(platformServices).where(eq(platformServices.serviceName, "SendGrid"));
      await smtp.close();
    }
  });
});
