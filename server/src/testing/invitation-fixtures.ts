import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { invitations, memberships, users } from "../db/schema";
import { markSessionsProved } from "./second-factor-fixtures";
import { linkTokenIn } from "./smtp-capture";
import { useTestSmtp, type startTestSmtp } from "./test-smtp";
import { useTestContext, type SignedUp, type TestContext } from "./test-context";

/**
 * Invitations through the API, from both sides: sent by a board member, found in the mail (delivered by the file's
 * SMTP capture, `smtp`, started in its beforeAll), previewed, accepted, registered by; and what they left in the database.
 */
export function invitationFixtures(ctx: TestContext, smtp: () => Awaited<ReturnType<typeof startTestSmtp>>) {
  const api = () => request(ctx.app);
  let counter = 0;
  const uniqueEmail = (prefix: string) => `${prefix}${++counter}-${Date.now().toString(36)}@example.com`;
  const uniqueName = (prefix: string) => `${prefix}${++counter}${Date.now().toString(36)}`;
  const tokenOf = (inviteUrl: string) => new URL(inviteUrl).searchParams.get("token")!;
  const digest = (token: string) => createHash("sha256").update(token).digest("hex");
  const masked = (address: string) => `${address[0]}••${address.slice(address.indexOf("@"))}`;

  /** Invites from a session proved afresh, as seating an admin or a founder needs (its refusal is tested on its own). */
  async function invite(by: SignedUp, companyId: number, body: Record<string, unknown>) {
    await markSessionsProved(ctx, by.id);
    const response = await api().post(`/api/companies/${companyId}/members`).set("Authorization", by.bearer).send(body);
    expect(response.status).toBe(202);
    return response.body as { invitation: { id: number }; inviteUrl: string };
  }

  /** The invitation's link as the holder of the address finds it in their mail. */
  async function mailedToken(address: string): Promise<string> {
    // A holder who registered meanwhile also got the link that confirms their address: only the invitation counts here.
    const mails = (await smtp().deliver(ctx, address)).filter((mail) => mail.subject.startsWith("Invitation to join"));
    expect(mails).toHaveLength(1);
    return linkTokenIn(mails[0]!, "/invite");
  }

  /** The subjects of the mail waiting for an address. */
  const subjectsTo = async (address: string) => (await smtp().deliver(ctx, address)).map((mail) => mail.subject);

  const preview = (token: string) => api().post("/api/invitations/preview").send({ token });
  const acceptByLink = (by: SignedUp, token: string) =>
    api().post("/api/invitations/accept").set("Authorization", by.bearer).send({ token });
  const register = (fields: Record<string, unknown>) =>
    api()
      .post("/api/auth/register")
      .send({ username: uniqueName("u"), password: "their-own-password", firstName: "New", lastName: "Person", ...fields });

  async function membershipOf(companyId: number, userId: number) {
    const [row] = await ctx.db
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
    return row?.role ?? null;
  }

  async function statusOf(invitationId: number) {
    const [row] = await ctx.db.select({ status: invitations.status }).from(invitations).where(eq(invitations.id, invitationId));
    return row?.status;
  }

  const accountsWith = (address: string) =>
    ctx.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${address.toLowerCase()}`);

  async function signIn(user: SignedUp): Promise<SignedUp> {
    const response = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
    expect(response.status).toBe(200);
    return { ...user, token: response.body.token, bearer: `Bearer ${response.body.token}` };
  }

  const proveAddressOf = (user: SignedUp) => ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, user.id));

  return {
    uniqueEmail,
    uniqueName,
    tokenOf,
    digest,
    masked,
    invite,
    mailedToken,
    subjectsTo,
    preview,
    acceptByLink,
    register,
    membershipOf,
    statusOf,
    accountsWith,
    signIn,
    proveAddressOf,
  };
}

/** A file's context, its SMTP server and the invitation fixtures bound to both, set up and closed with the file. */
export async function useInvitationContext() {
  const ctx = useTestContext();
  const smtp = await useTestSmtp(ctx);
  return { ctx, smtp, api: () => request(ctx.app), ...invitationFixtures(ctx, () => smtp) };
}
