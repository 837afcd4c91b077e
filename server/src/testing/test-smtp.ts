import { platformServices } from "../db/schema";
import { drainOutbox } from "../features/notifications/outbox.service";
import { encryptSecret, maskSecret } from "../integrations/secrets";
import { startSmtpCapture, type ReceivedMail } from "./smtp-capture";
import request from "supertest";
import { useTestContext, type TestContext } from "./test-context";

/**
 * A real SMTP server on a free port of this process, and the file's app set to send through it (the SendGrid
 * service pointed at it). Tests read what arrived and follow the links in it, as the holder of the address would.
 */
export async function startTestSmtp() {
  const { received, port, close } = await startSmtpCapture();
  return {
    received,
    /** Points the app's mail service at this server (call once the context is open). */
    async configure(ctx: TestContext): Promise<void> {
      const key = "SG.test-key-0123456789abcdef";
      await ctx.db.insert(platformServices).values({
        serviceName: "SendGrid",
        serviceKeyEncrypted: encryptSecret(key, ctx.deps.appSecret),
        serviceKeyPreview: maskSecret(key),
        serviceUrl: `smtp://apikey@127.0.0.1:${port}`,
        isEnabled: true,
      });
    },
    /** Sends what the outbox holds, and answers the mails that arrived to this address since the last call. */
    async deliver(ctx: TestContext, to?: string): Promise<ReceivedMail[]> {
      await drainOutbox(ctx.deps);
      const arrived = received.splice(0, received.length);
      return to ? arrived.filter((mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase())) : arrived;
    },
    close,
  };
}

/** The file's SMTP server, pointed at by the context's app from its beforeAll and closed after the file. */
export async function useTestSmtp(ctx: TestContext) {
  const smtp = await startTestSmtp();
  beforeAll(() => smtp.configure(ctx));
  afterAll(() => smtp.close());
  return smtp;
}

/** A file's context whose mails name the app at `appUrl` and go out through the file's SMTP server. */
export async function useMailingContext() {
  const appUrl = "https://board.quorum.test";
  const ctx = useTestContext({ mail: { from: "Quorum <board@quorum.test>", appUrl } });
  const smtp = await useTestSmtp(ctx);
  return { ctx, smtp, appUrl, api: () => request(ctx.app) };
}
