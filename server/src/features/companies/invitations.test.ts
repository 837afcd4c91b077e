import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { invitationLifetimeMs } from "../../../../shared/identity";
import { deniedMessage } from "../../../../shared/permissions";
import { auditEvents, invitations, memberships, users } from "../../db/schema";
import { addMember, createCompany } from "../../testing/factories";
import { linkTokenIn } from "../../testing/smtp-capture";
import { markSessionsProved } from "../../testing/second-factor-fixtures";
import { startTestSmtp } from "../../testing/test-smtp";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
beforeAll(async () => {
  smtp = await startTestSmtp();
  await smtp.configure(ctx);
});
afterAll(() => smtp.close());

const api = () => request(ctx.app);
let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}${++counter}-${Date.now().toString(36)}@example.com`;
const uniqueName = (prefix: string) => `${prefix}${++counter}${Date.now().toString(36)}`;
const tokenOf = (inviteUrl: string) => new URL(inviteUrl).searchParams.get("token")!;
const digest = (token: string) => createHash("sha256").update(token).digest("hex");
const masked = (address: string) => `${address[0]}••${address.slice(address.indexOf("@"))}`;

/** Invites from a session proved afresh, as seating an admin or a founder needs (its refusal is tested on its own below). */
async function invite(by: SignedUp, companyId: number, body: Record<string, unknown>) {
  await markSessionsProved(ctx, by.id);
  const response = await api().post(`/api/companies/${companyId}/members`).set("Authorization", by.bearer).send(body);
  expect(response.status).toBe(202);
  return response.body as { invitation: { id: number }; inviteUrl: string };
}

/** The invitation's link as the holder of the address finds it in their mail. */
async function mailedToken(address: string): Promise<string> {
  // A holder who registered meanwhile also got the link that confirms their address: only the invitation counts here.
  const mails = (await smtp.deliver(ctx, address)).filter((mail) => mail.subject.startsWith("Invitation to join"));
  expect(mails).toHaveLength(1);
  return linkTokenIn(mails[0]!, "/invite");
}

/** The subjects of the mail waiting for an address. */
const subjectsTo = async (address: string) => (await smtp.deliver(ctx, address)).map((mail) => mail.subject);

const preview = (token: string) => api().post("/api/invitations/preview").send({ token });
const acceptByLink = (by: SignedUp, token: string) => api().post("/api/invitations/accept").set("Authorization", by.bearer).send({ token });
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

describe("an invitation's link, read from the mail", () => {
  it("previews the company, role and inviter with the address masked; registering with its token joins the company", async () => {
    const { founder, company } = await ctx.board("Link Board", { firstName: "Fiona", lastName: "Founder" });
    const email = uniqueEmail("cfo");
    const invited = await invite(founder, company.id, { email, role: "admin" });
    const token = await mailedToken(email);
    // The mailed link is not the one the inviter was shown; of each only the digest is kept.
    const shared = tokenOf(invited.inviteUrl);
    expect(token).not.toBe(shared);
    const [row] = await ctx.db.select().from(invitations).where(eq(invitations.id, invited.invitation.id));
    expect(row).toMatchObject({ tokenHash: digest(token), sharedTokenHash: digest(shared) });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(shared);

    // Either link previews the same, and nothing of whether an account holds the address.
    for (const link of [token, shared]) {
      const shown = await preview(link);
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual({
        companyName: "Link Board",
        role: "admin",
        inviterName: "Fiona Founder",
        email: masked(email),
        expiresAt: new Date(ctx.clock.now().getTime() + invitationLifetimeMs).toISOString(),
        status: "pending",
      });
    }

    const joined = await register({ email, invitationToken: token });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ email, companyId: company.id, role: "admin", emailVerified: true });
    expect(await membershipOf(company.id, joined.body.id)).toBe("admin");
    expect(await statusOf(invited.invitation.id)).toBe("accepted");
    expect((await preview(token)).body.status).toBe("accepted");
    expect((await preview(shared)).body.status).toBe("accepted");
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "member.join")));
    expect(event).toMatchObject({ actorId: joined.body.id, targetType: "user", targetId: String(joined.body.id) });
    // Used once: registering again with it makes nothing.
    const otherAddress = uniqueEmail("again");
    const again = await register({ email: otherAddress, invitationToken: token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "This invitation was already accepted" });
    expect(await accountsWith(otherAddress)).toEqual([]);
    expect((await register({ email, invitationToken: shared })).status).toBe(409);
  });

  it("registering with the token of an invitation to another address is a 403 naming that address masked, and creates nothing", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("carol");
    const { inviteUrl } = await invite(founder, company.id, { email, role: "member" });
    for (const token of [tokenOf(inviteUrl), await mailedToken(email)]) {
      const stranger = uniqueEmail("stranger");
      const response = await register({ email: stranger, invitationToken: token });
      expect(response.status).toBe(403);
      expect(response.body.message).toContain(masked(email));
      expect(response.body.message).not.toContain(email);
      expect(await accountsWith(stranger)).toEqual([]);
    }
  });

  it("a forged token is a 404, a malformed one a 400, and neither creates an account", async () => {
    const forged = "A".repeat(43);
    expect((await preview(forged)).status).toBe(404);
    const email = uniqueEmail("forger");
    const byForged = await register({ email, invitationToken: forged });
    expect(byForged.status).toBe(404);
    expect(byForged.body).toEqual({ message: "This invitation link is not valid. Ask for a new one." });
    const malformed = await register({ email, invitationToken: "not a token!" });
    expect(malformed.status).toBe(400);
    expect((await preview("../../etc")).status).toBe(400);
    expect(await accountsWith(email)).toEqual([]);
  });

  it("registering with an invited address but without the token joins nothing", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("squatter");
    const { invitation } = await invite(founder, company.id, { email, role: "admin" });
    const registered = await register({ email });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ companyId: null, role: null, emailVerified: false });
    expect(await membershipOf(company.id, registered.body.id)).toBeNull();
    expect(await statusOf(invitation.id)).toBe("pending");
    const members = await api().get(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer);
    expect(members.body.map((member: { id: number }) => member.id)).toEqual([founder.id]);
  });
});

describe("the link shown to the inviter (inviteUrl): it joins, but proves no address", () => {
  const confirmSubject = "Confirm your e-mail address for Quorum";

  it("an inviter who registers the invited address by it gets an unconfirmed account that sees no other board's invitation", async () => {
    const { founder, company } = await ctx.board("Inviter's Board");
    const other = await ctx.board("Other Board");
    const email = uniqueEmail("target");
    const { inviteUrl } = await invite(founder, company.id, { email, role: "member" });
    const elsewhere = await invite(other.founder, other.company.id, { email, role: "admin" });

    // The inviter holds this link too: registering the address by it joins, and proves nothing.
    const squatter = await register({ email, invitationToken: tokenOf(inviteUrl) });
    expect(squatter.status).toBe(201);
    expect(squatter.body).toMatchObject({ email, emailVerified: false, companyId: company.id, role: "member" });
    const bearer = `Bearer ${squatter.body.token}`;
    expect((await api().get("/api/invitations").set("Authorization", bearer)).body).toEqual([]);
    const taken = await api().post(`/api/invitations/${elsewhere.invitation.id}/accept`).set("Authorization", bearer);
    expect(taken.status).toBe(404);
    expect(await statusOf(elsewhere.invitation.id)).toBe("pending");

    // The confirmation goes to the address; the address's holder joins the other board by its mailed link and so
    // proves the address, which the unconfirmed account loses.
    const mails = await smtp.deliver(ctx, email);
    expect(mails.map((mail) => mail.subject)).toContain(confirmSubject);
    const otherMail = mails.find((mail) => mail.subject === "Invitation to join Other Board on Quorum")!;
    const holder = await register({ email, invitationToken: linkTokenIn(otherMail, "/invite") });
    expect(holder.status).toBe(201);
    expect(holder.body).toMatchObject({ email, emailVerified: true, companyId: other.company.id, role: "admin" });
    const [squatterNow] = await ctx.db.select().from(users).where(eq(users.id, squatter.body.id));
    expect(squatterNow).toMatchObject({ email: "", emailVerified: false });
  });

  it("registering by it makes an unconfirmed account that joins and is mailed the usual confirmation; Add Member's account gives way", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("newcomer");
    const { invitation, inviteUrl } = await invite(founder, company.id, {
      email,
      firstName: "New",
      lastName: "Comer",
      role: "member",
      password: "admin-chosen-1",
    });
    expect(await accountsWith(email)).toEqual([expect.objectContaining({ passwordSet: false })]);
    const joined = await register({ username: email, email, invitationToken: tokenOf(inviteUrl) });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ username: email, emailVerified: false, companyId: company.id, role: "member" });
    expect(await accountsWith(email)).toEqual([expect.objectContaining({ id: joined.body.id, passwordSet: true, emailVerified: false })]);
    expect(await statusOf(invitation.id)).toBe("accepted");
    expect(await membershipOf(company.id, joined.body.id)).toBe("member");
    expect(await subjectsTo(email)).toEqual(expect.arrayContaining([confirmSubject]));
  });

  it("signed in, accepting by it joins and leaves the address as it was; Add Member's account gives way", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("unconfirmed");
    const holder = await ctx.signUp({ email, confirmAddress: false });
    const { invitation, inviteUrl } = await invite(founder, company.id, {
      email,
      firstName: "Un",
      lastName: "Confirmed",
      role: "member",
      password: "admin-chosen-1",
    });
    expect(await accountsWith(email)).toHaveLength(2);
    expect((await acceptByLink(holder, tokenOf(inviteUrl))).body).toEqual({ companyId: company.id, role: "member" });
    const me = await api().get("/api/auth/user").set("Authorization", holder.bearer);
    expect(me.body).toMatchObject({ email, emailVerified: false, companyId: company.id, role: "member" });
    expect(await accountsWith(email)).toEqual([expect.objectContaining({ id: holder.id })]);
    expect(await statusOf(invitation.id)).toBe("accepted");
    // An account that proved its address keeps it proved.
    const proved = await ctx.signUp();
    const second = await invite(founder, company.id, { email: proved.email, role: "observer" });
    expect((await acceptByLink(proved, tokenOf(second.inviteUrl))).status).toBe(200);
    expect((await api().get("/api/auth/user").set("Authorization", proved.bearer)).body).toMatchObject({ emailVerified: true });
  });
});

describe("POST /api/invitations/accept (signed in)", () => {
  it("joins the holder of the invited address, proves the address, and takes it from any other account holding it unproved", async () => {
    const { founder, company } = await ctx.board("Accept Board");
    const email = uniqueEmail("Dana");
    const dana = await ctx.signUp({ email, confirmAddress: false });
    // Another account naming the same address, never proved (as a sign-up whose link was not followed).
    const [rival] = await ctx.db
      .insert(users)
      .values({ username: uniqueName("rival"), email: email.toUpperCase(), passwordHash: "unused", emailVerified: false })
      .returning();
    const { invitation } = await invite(founder, company.id, { email: email.toLowerCase(), role: "member" });
    const token = await mailedToken(email.toLowerCase());

    const accepted = await acceptByLink(dana, token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ companyId: company.id, role: "member" });
    const me = await api().get("/api/auth/user").set("Authorization", dana.bearer);
    expect(me.body).toMatchObject({ email, emailVerified: true, companyId: company.id, role: "member" });
    const [rivalNow] = await ctx.db.select().from(users).where(eq(users.id, rival!.id));
    expect(rivalNow).toMatchObject({ email: "", emailVerified: false });
    expect(await statusOf(invitation.id)).toBe("accepted");

    // Twice: 409, and nothing more is written.
    const twice = await acceptByLink(dana, token);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: "This invitation was already accepted" });
  });

  it.runIf(process.env.QUORUM_TEST_DB === "postgres")(
    "answers 409, not 500, when another account proves the address while the acceptance waits to write it",
    async () => {
      const { founder, company } = await ctx.board();
      const email = uniqueEmail("contested");
      const holder = await ctx.signUp({ email, confirmAddress: false });
      const { invitation } = await invite(founder, company.id, { email, role: "member" });
      const token = await mailedToken(email);
      let pending: Promise<request.Response> | undefined;
      await ctx.db.transaction(async (tx) => {
        // Another account proving the address, not yet committed: the acceptance cannot see it, and its write of the
        // proved address waits on the unique index until this transaction ends (`then` sends the request now).
        await tx.insert(users).values({ username: uniqueName("rival"), email, passwordHash: "unused", emailVerified: true });
        pending = acceptByLink(holder, token).then((response) => response);
        await vi.waitFor(
          async () => {
            const waiting = await ctx.db.execute(
              sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'update "users"%'`,
            );
            expect((waiting as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
          },
          { timeout: 5_000, interval: 20 },
        );
      });
      const answer = await pending!;
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ message: "Another account has already confirmed this e-mail address." });
      expect(await membershipOf(company.id, holder.id)).toBeNull();
      expect(await statusOf(invitation.id)).toBe("pending");
    },
  );

  it("keeps the active company of one who has one", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("busy");
    const { founder: busy, company: own } = await ctx.board("Own Board", { email });
    await invite(founder, company.id, { email, role: "observer" });
    expect((await acceptByLink(busy, await mailedToken(email))).status).toBe(200);
    const me = await api().get("/api/auth/user").set("Authorization", busy.bearer);
    expect(me.body.companyId).toBe(own.id);
    expect(await membershipOf(company.id, busy.id)).toBe("observer");
  });

  it("refuses a signed-in account of another address with 403 naming the invited address masked; the invitation stays", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("erin");
    const { invitation } = await invite(founder, company.id, { email, role: "admin" });
    const other = await ctx.signUp();
    const response = await acceptByLink(other, await mailedToken(email));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: `This invitation was sent to ${masked(email)}. Sign in with that address to accept it.` });
    expect(await membershipOf(company.id, other.id)).toBeNull();
    expect(await statusOf(invitation.id)).toBe("pending");
  });

  it("two accepts at once: one joins, the other is a 409", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("racer");
    const racer = await ctx.signUp({ email });
    await invite(founder, company.id, { email, role: "member" });
    const token = await mailedToken(email);
    const answers = await Promise.all([acceptByLink(racer, token), acceptByLink(racer, token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await membershipOf(company.id, racer.id)).toBe("member");
  });

  it("an expired invitation is a 410 (and previews as expired); resending gives it a new link", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("late");
    const late = await ctx.signUp({ email });
    const { invitation } = await invite(founder, company.id, { email, role: "member" });
    const token = await mailedToken(email);
    ctx.clock.advance(invitationLifetimeMs + 1000);
    // Sessions idle that long have ended too.
    const lateNow = await signIn(late);
    const founderNow = await signIn(founder);
    expect((await preview(token)).body.status).toBe("expired");
    const response = await acceptByLink(lateNow, token);
    expect(response.status).toBe(410);
    expect(response.body).toEqual({ message: "This invitation has expired. Ask for a new one." });
    expect(await membershipOf(company.id, late.id)).toBeNull();
    const listed = await api().get(`/api/companies/${company.id}/invitations`).set("Authorization", founderNow.bearer);
    expect(listed.body.find((row: { id: number }) => row.id === invitation.id)).toMatchObject({ status: "expired", hasLink: true });

    const resent = await api()
      .post(`/api/companies/${company.id}/invitations/${invitation.id}/resend`)
      .set("Authorization", founderNow.bearer);
    expect(resent.status).toBe(200);
    const fresh = await mailedToken(email);
    expect(fresh).not.toBe(tokenOf(resent.body.inviteUrl));
    expect((await acceptByLink(lateNow, fresh)).status).toBe(200);
  });

  it("a revoked invitation is a 410; revoking it again a 409, one of another company a 404", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("revoked");
    const holder = await ctx.signUp({ email });
    const { invitation } = await invite(founder, company.id, { email, role: "member" });
    const token = await mailedToken(email);
    const revoke = (by: SignedUp, companyId: number) =>
      api().delete(`/api/companies/${companyId}/invitations/${invitation.id}`).set("Authorization", by.bearer);
    const other = await ctx.board("Other Board");
    expect((await revoke(other.founder, other.company.id)).status).toBe(404);
    expect((await revoke(founder, company.id)).status).toBe(204);
    expect((await revoke(founder, company.id)).status).toBe(409);
    expect((await preview(token)).body.status).toBe("revoked");
    const response = await acceptByLink(holder, token);
    expect(response.status).toBe(410);
    expect(await membershipOf(company.id, holder.id)).toBeNull();
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "member.invite_revoked")));
    expect(event).toMatchObject({ actorId: founder.id, targetId: String(invitation.id) });
  });
});

describe("resending", () => {
  it("kills the old link, mails a new one, and is refused once the invitation was answered", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("resend");
    const { invitation, inviteUrl } = await invite(founder, company.id, { email, role: "member" });
    const first = await mailedToken(email);
    const resend = () =>
      api().post(`/api/companies/${company.id}/invitations/${invitation.id}/resend`).set("Authorization", founder.bearer);
    const resent = await resend();
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ status: "invited", invitation: { id: invitation.id, email, role: "member" } });
    const second = await mailedToken(email);
    expect(second).not.toBe(first);
    expect(resent.body.inviteUrl).not.toBe(inviteUrl);
    // Both old links die; the new shown one works.
    for (const old of [first, tokenOf(inviteUrl)]) {
      expect((await preview(old)).status).toBe(404);
      expect((await register({ email, invitationToken: old })).status).toBe(404);
    }
    expect((await preview(tokenOf(resent.body.inviteUrl))).body.status).toBe("pending");

    const joined = await register({ email, invitationToken: second });
    expect(joined.status).toBe(201);
    expect((await resend()).status).toBe(409);
    expect((await api().post(`/api/companies/${company.id}/invitations/999999/resend`).set("Authorization", founder.bearer)).status).toBe(
      404,
    );
  });

  it("gives an invitation made before links (no token) its first link", async () => {
    const { founder, company } = await ctx.board();
    const email = uniqueEmail("legacy");
    const [legacy] = await ctx.db
      .insert(invitations)
      .values({
        companyId: company.id,
        email,
        role: "member",
        invitedBy: founder.id,
        expiresAt: new Date(ctx.clock.now().getTime() + 60_000),
      })
      .returning({ id: invitations.id });
    const list = () => api().get(`/api/companies/${company.id}/invitations`).set("Authorization", founder.bearer);
    expect((await list()).body).toEqual([expect.objectContaining({ id: legacy!.id, status: "pending", hasLink: false })]);
    const resent = await api().post(`/api/companies/${company.id}/invitations/${legacy!.id}/resend`).set("Authorization", founder.bearer);
    expect(resent.status).toBe(200);
    expect((await list()).body).toEqual([expect.objectContaining({ id: legacy!.id, status: "pending", hasLink: true })]);
    const joined = await register({ email, invitationToken: await mailedToken(email) });
    expect(joined.body).toMatchObject({ companyId: company.id, role: "member" });
  });

  it("is for founders and admins; an admin may not resend a founder's invitation", async () => {
    const { founder, company, member } = await ctx.board();
    const admin = await member("admin");
    const plain = await member("member");
    const { invitation } = await invite(founder, company.id, { email: uniqueEmail("f"), role: "founder" });
    const resend = (by: SignedUp) =>
      api().post(`/api/companies/${company.id}/invitations/${invitation.id}/resend`).set("Authorization", by.bearer);
    expect((await resend(plain)).status).toBe(403);
    expect((await resend(admin)).status).toBe(403);
    expect((await resend(founder)).status).toBe(200);
    expect((await api().get(`/api/companies/${company.id}/invitations`).set("Authorization", plain.bearer)).status).toBe(403);
  });
});

describe("a founder's invitation", () => {
  it("is the founders' to change: an admin may neither withdraw it nor rewrite it by inviting the address again (403)", async () => {
    const { founder, company, member } = await ctx.board();
    const admin = await member("admin");
    const email = uniqueEmail("cofounder");
    const { invitation, inviteUrl } = await invite(founder, company.id, { email, role: "founder" });
    const mailed = await mailedToken(email);
    const revoke = (by: SignedUp) =>
      api().delete(`/api/companies/${company.id}/invitations/${invitation.id}`).set("Authorization", by.bearer);
    const withdrawn = await revoke(admin);
    expect(withdrawn.status).toBe(403);
    expect(withdrawn.body).toEqual({ message: deniedMessage("assignFounder") });
    for (const body of [
      { email, role: "observer" },
      { email: email.toUpperCase(), firstName: "A", lastName: "B", role: "member", password: "admin-chosen-1" },
    ]) {
      const again = await api().post(`/api/companies/${company.id}/members`).set("Authorization", admin.bearer).send(body);
      expect(again.status).toBe(403);
      expect(again.body).toEqual({ message: deniedMessage("assignFounder") });
    }
    // Untouched: its role and both links, no account made for the address, no mail.
    for (const token of [mailed, tokenOf(inviteUrl)]) {
      expect((await preview(token)).body).toMatchObject({ role: "founder", status: "pending" });
    }
    expect(await accountsWith(email)).toEqual([]);
    expect(await subjectsTo(email)).toEqual([]);
    expect((await revoke(founder)).status).toBe(204);
  });
});

describe("Add Member with a password", () => {
  it("makes an account that cannot sign in: the admin's password signs nobody in; the holder sets their own by the link", async () => {
    const { founder, company } = await ctx.board("Password Board");
    const email = uniqueEmail("nina");
    const adminsPassword = "admin-chosen-1";
    const { invitation } = await invite(founder, company.id, {
      email,
      firstName: "Nina",
      lastName: "New",
      role: "member",
      password: adminsPassword,
      companyId: company.id,
    });
    const [waiting] = await accountsWith(email);
    expect(waiting).toMatchObject({ username: email, passwordHash: "", passwordSet: false, emailVerified: false, firstName: "Nina" });
    expect(await membershipOf(company.id, waiting!.id)).toBeNull();
    for (const username of [email, email.toUpperCase()]) {
      const login = await api().post("/api/auth/login").send({ username, password: adminsPassword });
      expect(login.status).toBe(401);
      expect(login.body).toEqual({ message: "Invalid username or password" });
    }

    const token = await mailedToken(email);
    expect((await preview(token)).body).toMatchObject({ status: "pending" });
    const joined = await register({
      username: email,
      email,
      password: "nina-own-password",
      firstName: "Nina",
      lastName: "Own",
      invitationToken: token,
    });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ username: email, companyId: company.id, role: "member", emailVerified: true, lastName: "Own" });
    expect(await statusOf(invitation.id)).toBe("accepted");
    const holders = await accountsWith(email);
    expect(holders).toHaveLength(1);
    expect(holders[0]).toMatchObject({ passwordSet: true, emailVerified: true });

    expect((await api().post("/api/auth/login").send({ username: email, password: adminsPassword })).status).toBe(401);
    const own = await api().post("/api/auth/login").send({ username: email, password: "nina-own-password" });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ companyId: company.id, role: "member" });
  });

  it("with an address an account has proved: an ordinary invitation, no account made, the account's password untouched", async () => {
    const { founder, company } = await ctx.board();
    const existing = await ctx.signUp({ password: "my-own-password" });
    await proveAddressOf(existing);
    const before = (await ctx.db.select({ id: users.id }).from(users)).length;
    const answer = await invite(founder, company.id, {
      email: existing.email,
      firstName: "Some",
      lastName: "One",
      role: "admin",
      password: "attacker-password",
    });
    expect((await ctx.db.select({ id: users.id }).from(users)).length).toBe(before);
    expect(await membershipOf(company.id, existing.id)).toBeNull();
    expect((await api().post("/api/auth/login").send({ username: existing.username, password: "attacker-password" })).status).toBe(401);
    expect((await api().post("/api/auth/login").send({ username: existing.username, password: "my-own-password" })).status).toBe(200);
    const accepted = await acceptByLink(existing, tokenOf(answer.inviteUrl));
    expect(accepted.body).toEqual({ companyId: company.id, role: "admin" });
  });
});

describe("invitations on the dashboard (GET /api/invitations, accept and decline by id)", () => {
  it("lists pending invitations to the caller's proved address only; accept and decline are the caller's alone", async () => {
    const first = await ctx.board("First Board", { firstName: "Ivy", lastName: "Inviter" });
    const second = await ctx.board("Second Board");
    const email = uniqueEmail("dash");
    const holder = await ctx.signUp({ email, confirmAddress: false });
    const a = await invite(first.founder, first.company.id, { email, role: "member" });
    const b = await invite(second.founder, second.company.id, { email: email.toUpperCase(), role: "observer" });
    const mine = () => api().get("/api/invitations").set("Authorization", holder.bearer);
    // An address not yet proved grants nothing.
    expect((await mine()).body).toEqual([]);
    expect((await api().post(`/api/invitations/${a.invitation.id}/accept`).set("Authorization", holder.bearer)).status).toBe(404);

    await proveAddressOf(holder);
    const listed = await mine();
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(
      expect.arrayContaining([
        { id: a.invitation.id, companyName: "First Board", role: "member", inviterName: "Ivy Inviter", expiresAt: expect.any(String) },
        {
          id: b.invitation.id,
          companyName: "Second Board",
          role: "observer",
          inviterName: expect.any(String),
          expiresAt: expect.any(String),
        },
      ]),
    );
    expect(listed.body).toHaveLength(2);

    const outsider = await ctx.signUp();
    await proveAddressOf(outsider);
    const foreign = await api().post(`/api/invitations/${a.invitation.id}/accept`).set("Authorization", outsider.bearer);
    const missing = await api().post(`/api/invitations/999999/accept`).set("Authorization", outsider.bearer);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await api().post(`/api/invitations/${a.invitation.id}/decline`).set("Authorization", outsider.bearer)).status).toBe(404);

    const accepted = await api().post(`/api/invitations/${a.invitation.id}/accept`).set("Authorization", holder.bearer);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ companyId: first.company.id, role: "member" });
    const declined = await api().post(`/api/invitations/${b.invitation.id}/decline`).set("Authorization", holder.bearer);
    expect(declined.status).toBe(204);
    expect(await membershipOf(second.company.id, holder.id)).toBeNull();
    expect(await statusOf(b.invitation.id)).toBe("declined");
    expect((await mine()).body).toEqual([]);
    expect((await api().post(`/api/invitations/${b.invitation.id}/accept`).set("Authorization", holder.bearer)).status).toBe(404);
    // A declined link is spent.
    expect((await acceptByLink(holder, tokenOf(b.inviteUrl))).status).toBe(410);
  });
});

describe("DELETE /api/companies/:companyId/members/me", () => {
  it("ends the caller's membership (an audit event) and clears it as their active company", async () => {
    const { company, member } = await ctx.board("Leaving Board");
    const leaver = await member("admin");
    const response = await api().delete(`/api/companies/${company.id}/members/me`).set("Authorization", leaver.bearer);
    expect(response.status).toBe(204);
    expect(await membershipOf(company.id, leaver.id)).toBeNull();
    const me = await api().get("/api/auth/user").set("Authorization", leaver.bearer);
    expect(me.body).toMatchObject({ companyId: null, role: null });
    expect((await api().get(`/api/companies/${company.id}/members`).set("Authorization", leaver.bearer)).status).toBe(403);
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "member.leave")));
    expect(event).toMatchObject({ actorId: leaver.id, targetId: String(leaver.id), details: { role: "admin" } });
  });

  it("refuses the last founder (409); of two founders leaving at once, one stays", async () => {
    const { founder, company } = await ctx.board();
    const leave = (by: SignedUp) => api().delete(`/api/companies/${company.id}/members/me`).set("Authorization", by.bearer);
    const alone = await leave(founder);
    expect(alone.status).toBe(409);
    expect(await membershipOf(company.id, founder.id)).toBe("founder");

    const second = await ctx.signUp();
    await addMember(ctx.db, company.id, second.id, "founder");
    const both = await Promise.all([leave(founder), leave(second)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([204, 409]);
    const founders = await ctx.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.companyId, company.id), eq(memberships.role, "founder")));
    expect(founders).toHaveLength(1);
  });

  it("keeps another active company", async () => {
    const { company, member } = await ctx.board();
    const leaver = await member("member");
    const elsewhere = await createCompany(ctx.db, { name: "Elsewhere", founderId: leaver.id, activate: true });
    expect((await api().delete(`/api/companies/${company.id}/members/me`).set("Authorization", leaver.bearer)).status).toBe(204);
    expect((await api().get("/api/auth/user").set("Authorization", leaver.bearer)).body.companyId).toBe(elsewhere.id);
  });
});
