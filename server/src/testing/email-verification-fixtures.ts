import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import request from "supertest";
import { sessions } from "../db/schema";
import { linkTokenIn, type ReceivedMail } from "./smtp-capture";
import type { startTestSmtp } from "./test-smtp";
import type { SignedUp, TestContext } from "./test-context";

/**
 * Addresses proved through the mail, as their holders would: the confirmation links delivered by the file's SMTP
 * capture (`smtp`, started in its beforeAll) and followed.
 */
export function emailVerificationFixtures(ctx: TestContext, smtp: () => Awaited<ReturnType<typeof startTestSmtp>>) {
  const api = () => request(ctx.app);
  /** Every mail that arrived and was not yet read by a test, whoever it was for. */
  const inbox: ReceivedMail[] = [];

  /** Sends what the outbox holds and answers, and takes out of the inbox, the mails to the address (matching `subject`). */
  async function mailsTo(target: TestContext, address: string, subject?: RegExp): Promise<ReceivedMail[]> {
    inbox.push(...(await smtp().deliver(target)));
    const mine = inbox.filter(
      (mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()) && (!subject || subject.test(mail.subject)),
    );
    for (const mail of mine) inbox.splice(inbox.indexOf(mail), 1);
    return mine;
  }

  const confirmSubject = /Confirm your e-mail address/;

  /** The token of the latest confirmation link mailed to the address. */
  async function confirmationToken(address: string, target: TestContext = ctx): Promise<string> {
    const mails = await mailsTo(target, address, confirmSubject);
    expect(mails.length, `a confirmation mail to ${address}`).toBeGreaterThan(0);
    const token = linkTokenIn(mails.at(-1)!, "/verify-email");
    target.noteSecret(token);
    return token;
  }

  const verify = (token: string, target: TestContext = ctx) => request(target.app).post("/api/auth/verify-email").send({ token });
  const currentUser = (user: { bearer: string }) => api().get("/api/auth/user").set("Authorization", user.bearer);

  /**
   * Marks the session as having just re-proved its holder. `POST /api/auth/reauth` is not on this branch yet, so the
   * test writes `sessions.reauth_at` itself, for the session found by its token's SHA-256, as that route would.
   */
  async function proveSessionFresh(user: { token: string }): Promise<void> {
    const tokenHash = createHash("sha256").update(user.token).digest("hex");
    const updated = await ctx.db.update(sessions).set({ reauthAt: ctx.clock.now() }).where(eq(sessions.tokenHash, tokenHash)).returning();
    expect(updated).toHaveLength(1);
  }

  /** Signs up and follows the confirmation link from the mail: an account whose address is verified. */
  async function verifiedUser(fields: Parameters<TestContext["signUp"]>[0] = {}): Promise<SignedUp> {
    const user = await ctx.signUp({ confirmAddress: false, ...fields });
    expect((await verify(await confirmationToken(user.email))).status).toBe(200);
    return user;
  }

  return { mailsTo, confirmSubject, confirmationToken, verify, currentUser, proveSessionFresh, verifiedUser };
}
