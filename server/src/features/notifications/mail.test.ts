import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import request from "supertest";
import { SMTPServer } from "smtp-server";
import { mailOutbox, platformServices, userPreferences } from "../../db/schema";
import { encryptSecret, maskSecret } from "../../integrations/secrets";
import { meetingContent } from "../../testing/factories";
import { createTestContext, type TestContext } from "../../testing/test-context";
import { drainOutbox, maxMailAttempts, noMailServiceReason } from "./outbox.service";
import { headerOf, mimePart } from "../../testing/smtp-capture";

/**
 * E-mail against a real SMTP server (smtp-server, listening on a free port in this process): what arrives is
 * what a mail server really got over the wire.
 */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

let ctx: TestContext;
let smtp: SMTPServer;
let port: number;
const received: Received[] = [];
const logins: { user: string; pass: string }[] = [];
/** How many of the next deliveries the server refuses (451, try again later). */
let refuseNext = 0;
/** A pause inside each delivery, so that concurrent workers overlap. */
let deliveryDelayMs = 0;
const serviceKey = "SG.test-key-0123456789abcdef";

beforeAll(async () => {
  ctx = await createTestContext({ mail: { from: "Quorum <board@quorum.test>", appUrl: "https://quorum.test" } });
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? "", pass: auth.password ?? "" });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        setTimeout(() => {
          if (refuseNext > 0) {
            refuseNext -= 1;
            const error = Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 });
            callback(error);
            return;
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        }, deliveryDelayMs);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  port = (smtp.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await ctx.close();
});

beforeEach(async () => {
  received.length = 0;
  logins.length = 0;
  refuseNext = 0;
  deliveryDelayMs = 0;
  await ctx.db.delete(mailOutbox);
  await ctx.db.delete(platformServices);
});

async function configureSendGrid(url = `smtp://apikey@127.0.0.1:${port}`) {
  await ctx.db.insert(platformServices).values({
    serviceName: "SendGrid",
    serviceKeyEncrypted: encryptSecret(serviceKey, ctx.deps.appSecret),
    serviceKeyPreview: maskSecret(serviceKey),
    serviceUrl: url,
    isEnabled: true,
  });
}

/** A meeting scheduled by a founder with one participant: one notification e-mail queued for the participant. */
async function scheduleMeetingFor(title: string) {
  const { founder, member } = await ctx.board(`${title} Co`);
  const participant = await member();
  const start = new Date(ctx.clock.now().getTime() + 7 * 24 * 60 * 60 * 1000);
  const response = await request(ctx.app)
    .post("/api/documents")
    .set("Authorization", founder.bearer)
    .send({
      category: "Meeting",
      sendNotifications: true,
      content: JSON.stringify(meetingContent(start, { title, participants: [String(participant.id)] })),
    });
  expect(response.status).toBe(201);
  return { founder, participant, meetingId: (response.body as { id: number }).id };
}

describe("the mail outbox against a real SMTP server", () => {
  it("sends a notification once, to its recipient, with its subject, a plain-text and an HTML part, over the SendGrid service's URL and key", async () => {
    await configureSendGrid();
    const { participant, meetingId } = await scheduleMeetingFor("Strategy day");

    expect(await drainOutbox(ctx.deps)).toEqual({ sent: 1, retried: 0, failed: 0, notSent: 0 });
    expect(await drainOutbox(ctx.deps)).toEqual({ sent: 0, retried: 0, failed: 0, notSent: 0 });

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.to).toEqual([participant.email]);
    expect(mail!.from).toBe("board@quorum.test");
    expect(headerOf(mail!.raw, "Subject")).toBe("Meeting scheduled: Strategy day");
    expect(headerOf(mail!.raw, "Content-Type")).toMatch(/^multipart\/alternative/);
    expect(mimePart(mail!.raw, "text/plain")).toContain(`Open in Quorum: https://quorum.test/meetings/${meetingId}`);
    expect(mimePart(mail!.raw, "text/html")).toContain(`<a href="https://quorum.test/meetings/${meetingId}">Open in Quorum</a>`);
    expect(logins).toEqual([{ user: "apikey", pass: serviceKey }]);

    const [row] = await ctx.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null, sentAt: ctx.clock.now() });
  });

  it("retries a refused message after a backoff, and it arrives later, once", async () => {
    await configureSendGrid();
    const { participant } = await scheduleMeetingFor("Refused once");
    refuseNext = 1;

    expect(await drainOutbox(ctx.deps)).toMatchObject({ sent: 0, retried: 1 });
    const [waiting] = await ctx.db.select().from(mailOutbox);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, availableAt: new Date(ctx.clock.now().getTime() + 60_000) });
    expect(waiting!.lastError).toMatch(/451/);
    expect(await drainOutbox(ctx.deps)).toMatchObject({ sent: 0, retried: 0 }); // not due yet
    expect(received).toEqual([]);

    ctx.clock.advance(60_000);
    try {
      expect(await drainOutbox(ctx.deps)).toMatchObject({ sent: 1 });
    } finally {
      ctx.clock.advance(-60_000);
    }
    expect(received.map((mail) => mail.to)).toEqual([[participant.email]]);
    const [sent] = await ctx.db.select().from(mailOutbox);
    expect(sent).toMatchObject({ status: "sent", attempts: 2 });
  });

  it(`gives a message up as failed after ${maxMailAttempts} refused attempts, with the reason`, async () => {
    await configureSendGrid();
    await scheduleMeetingFor("Always refused");
    refuseNext = 100;
    const start = ctx.clock.now().getTime();
    try {
      for (let attempt = 1; attempt <= maxMailAttempts; attempt += 1) {
        await drainOutbox(ctx.deps);
        ctx.clock.advance(60 * 60_000);
      }
      expect(await drainOutbox(ctx.deps)).toEqual({ sent: 0, retried: 0, failed: 0, notSent: 0 });
    } finally {
      ctx.clock.set(new Date(start));
    }
    const [row] = await ctx.db.select().from(mailOutbox);
    expect(row).toMatchObject({ status: "failed", attempts: maxMailAttempts });
    expect(row!.lastError).toMatch(/451/);
    expect(received).toEqual([]);
  });

  it("two workers on two connection pools never send one message twice", async () => {
    await configureSendGrid();
    const second = await ctx.openSecondInstance();
    try {
      const { participant } = await scheduleMeetingFor("Concurrency");
      const [template] = await ctx.db.select().from(mailOutbox);
      const copies = Array.from({ length: 24 }, (_, index) => ({
        userId: participant.id,
        toAddress: participant.email,
        message: { ...template!.message, title: `Message ${index + 1}` },
      }));
      await ctx.db.insert(mailOutbox).values(copies);
      deliveryDelayMs = 15;

      const [a, b] = await Promise.all([
        drainOutbox(ctx.deps, { batchSize: 3 }),
        drainOutbox({ ...ctx.deps, db: second.db }, { batchSize: 3 }),
      ]);
      expect(a.sent + b.sent).toBe(25);
      if (ctx.databaseKind === "postgres") expect(Math.min(a.sent, b.sent)).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
    const subjects = received.map((mail) => headerOf(mail.raw, "Subject"));
    expect(subjects).toHaveLength(25);
    expect(new Set(subjects).size).toBe(25);
    const rows = await ctx.db.select().from(mailOutbox);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1)).toBe(true);
  });

  it("with no e-mail service, sends nothing and keeps the rows as not sent, with the reason", async () => {
    await scheduleMeetingFor("No service");
    await configureSendGrid();
    await ctx.db.update(platformServices).set({ isEnabled: false });

    expect(await drainOutbox(ctx.deps)).toMatchObject({ sent: 0, notSent: 1 });
    expect(await drainOutbox(ctx.deps)).toMatchObject({ notSent: 0 });
    expect(received).toEqual([]);
    expect(logins).toEqual([]);
    const rows = await ctx.db.select().from(mailOutbox);
    expect(rows.map((row) => [row.status, row.lastError])).toEqual([["not_sent", noMailServiceReason]]);
  });

  it("an unknown address invited to a company gets the invitation, with the company's invitation message", async () => {
    await configureSendGrid();
    const { founder, company } = await ctx.board("Invite Co");
    await request(ctx.app)
      .put(`/api/companies/${company.id}`)
      .set("Authorization", founder.bearer)
      .send({
        name: "Invite Co",
        industry: "Technology",
        location: "London",
        stage: "seed",
        invitationMessage: "Welcome aboard: papers are in the library.",
      })
      .expect(200);
    const response = await request(ctx.app)
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: "newcomer@example.org", role: "observer" });
    expect(response.body).toMatchObject({ status: "invited" });

    const [queued] = await ctx.db.select().from(mailOutbox);
    expect(queued).toMatchObject({ status: "pending", toAddress: "newcomer@example.org", companyId: company.id, userId: null });
    await drainOutbox(ctx.deps);
    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail!.to).toEqual(["newcomer@example.org"]);
    expect(headerOf(mail!.raw, "Subject")).toBe("Invitation to join Invite Co on Quorum");
    for (const type of ["text/plain", "text/html"]) {
      expect(mimePart(mail!.raw, type)).toContain("Welcome aboard: papers are in the library.");
      expect(mimePart(mail!.raw, type)).toMatch(/https:\/\/quorum\.test\/invite\?token=[\w-]{43}/);
    }
  });

  it("a notification e-mail links to the unsubscribe page and carries the one-click headers (RFC 8058) with the same signed token", async () => {
    await configureSendGrid();
    await scheduleMeetingFor("Unsubscribe me");
    await drainOutbox(ctx.deps);
    const raw = received[0]!.raw;
    const text = mimePart(raw, "text/plain")!;
    const token = /https:\/\/quorum\.test\/unsubscribe\?token=([A-Za-z0-9_.-]+)/.exec(text)?.[1];
    expect(token).toBeDefined();
    expect(mimePart(raw, "text/html")).toContain(`<a href="https://quorum.test/unsubscribe?token=${token}">Unsubscribe</a>`);
    expect(headerOf(raw, "List-Unsubscribe")).toBe(`<https://quorum.test/api/unsubscribe?token=${token}>`);
    expect(headerOf(raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
  });

  it("a mail program's one-click POST to the header's address turns the switch off, without signing in; opening the address changes nothing", async () => {
    await configureSendGrid();
    const { participant } = await scheduleMeetingFor("One click");
    await drainOutbox(ctx.deps);
    const address = /^<https:\/\/quorum\.test(\/api\/unsubscribe\?token=[A-Za-z0-9_.-]+)>$/.exec(
      headerOf(received[0]!.raw, "List-Unsubscribe") ?? "",
    )?.[1];
    expect(address).toBeDefined();
    const switches = async () =>
      (await ctx.db.select().from(userPreferences).where(eq(userPreferences.userId, participant.id)))[0]?.settings ?? null;

    // A scanner or a browser opening it: sent on to the page, nothing turned off.
    const opened = await request(ctx.app).get(address!);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe(address!.replace("/api/unsubscribe", "/unsubscribe"));
    expect(await switches()).toBeNull();

    const oneClick = await request(ctx.app).post(address!).type("form").send("List-Unsubscribe=One-Click");
    expect(oneClick.status).toBe(200);
    expect(oneClick.body).toEqual({ key: "meetingReminders", label: "Meeting Reminders" });
    expect(await switches()).toEqual({ meetingReminders: false });
  });
});
