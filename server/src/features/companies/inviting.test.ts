import { deniedMessage } from "../../../../shared/permissions";
import { invitations, users } from "../../db/schema";
import type { SignedUp } from "../../testing/test-context";
import { useInvitationContext } from "../../testing/invitation-fixtures";

const fixtures = await useInvitationContext();
const { ctx, api } = fixtures;

describe("resending", () => {
  it("kills the old link, mails a new one, and is refused once the invitation was answered", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("resend");
    const { invitation, inviteUrl } = await fixtures.invite(founder, company.id, { email, role: "member" });
    const first = await fixtures.mailedToken(email);
    const resend = () =>
      api().post(`/api/companies/${company.id}/invitations/${invitation.id}/resend`).set("Authorization", founder.bearer);
    const resent = await resend();
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ status: "invited", invitation: { id: invitation.id, email, role: "member" } });
    const second = await fixtures.mailedToken(email);
    expect(second).not.toBe(first);
    expect(resent.body.inviteUrl).not.toBe(inviteUrl);
    // Both old links die; the new shown one works.
    for (const old of [first, fixtures.tokenOf(inviteUrl)]) {
      expect((await fixtures.preview(old)).status).toBe(404);
      expect((await fixtures.register({ email, invitationToken: old })).status).toBe(404);
    }
    expect((await fixtures.preview(fixtures.tokenOf(resent.body.inviteUrl))).body.status).toBe("pending");

    const joined = await fixtures.register({ email, invitationToken: second });
    expect(joined.status).toBe(201);
    expect((await resend()).status).toBe(409);
    expect((await api().post(`/api/companies/${company.id}/invitations/999999/resend`).set("Authorization", founder.bearer)).status).toBe(
      404,
    );
  });

  it("gives an invitation made before links (no token) its first link", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("legacy");
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
    const joined = await fixtures.register({ email, invitationToken: await fixtures.mailedToken(email) });
    expect(joined.body).toMatchObject({ companyId: company.id, role: "member" });
  });

  it("is for founders and admins; an admin may not resend a founder's invitation", async () => {
    const { founder, company, member } = await ctx.board();
    const admin = await member("admin");
    const plain = await member("member");
    const { invitation } = await fixtures.invite(founder, company.id, { email: fixtures.uniqueEmail("f"), role: "founder" });
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
    const email = fixtures.uniqueEmail("cofounder");
    const { invitation, inviteUrl } = await fixtures.invite(founder, company.id, { email, role: "founder" });
    const mailed = await fixtures.mailedToken(email);
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
    for (const token of [mailed, fixtures.tokenOf(inviteUrl)]) {
      expect((await fixtures.preview(token)).body).toMatchObject({ role: "founder", status: "pending" });
    }
    expect(await fixtures.accountsWith(email)).toEqual([]);
    expect(await fixtures.subjectsTo(email)).toEqual([]);
    expect((await revoke(founder)).status).toBe(204);
  });
});

describe("Add Member with a password", () => {
  it("makes an account that cannot sign in: the admin's password signs nobody in; the holder sets their own by the link", async () => {
    const { founder, company } = await ctx.board("Password Board");
    const email = fixtures.uniqueEmail("nina");
    const adminsPassword = "admin-chosen-1";
    const { invitation } = await fixtures.invite(founder, company.id, {
      email,
      firstName: "Nina",
      lastName: "New",
      role: "member",
      password: adminsPassword,
      companyId: company.id,
    });
    const [waiting] = await fixtures.accountsWith(email);
    expect(waiting).toMatchObject({ username: email, passwordHash: "", passwordSet: false, emailVerified: false, firstName: "Nina" });
    expect(await fixtures.membershipOf(company.id, waiting!.id)).toBeNull();
    for (const username of [email, email.toUpperCase()]) {
      const login = await api().post("/api/auth/login").send({ username, password: adminsPassword });
      expect(login.status).toBe(401);
      expect(login.body).toEqual({ message: "Invalid username or password" });
    }

    const token = await fixtures.mailedToken(email);
    expect((await fixtures.preview(token)).body).toMatchObject({ status: "pending" });
    const joined = await fixtures.register({
      username: email,
      email,
      password: "nina-own-password",
      firstName: "Nina",
      lastName: "Own",
      invitationToken: token,
    });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ username: email, companyId: company.id, role: "member", emailVerified: true, lastName: "Own" });
    expect(await fixtures.statusOf(invitation.id)).toBe("accepted");
    const holders = await fixtures.accountsWith(email);
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
    await fixtures.proveAddressOf(existing);
    const before = (await ctx.db.select({ id: users.id }).from(users)).length;
    const answer = await fixtures.invite(founder, company.id, {
      email: existing.email,
      firstName: "Some",
      lastName: "One",
      role: "admin",
      password: "attacker-password",
    });
    expect((await ctx.db.select({ id: users.id }).from(users)).length).toBe(before);
    expect(await fixtures.membershipOf(company.id, existing.id)).toBeNull();
    expect((await api().post("/api/auth/login").send({ username: existing.username, password: "attacker-password" })).status).toBe(401);
    expect((await api().post("/api/auth/login").send({ username: existing.username, password: "my-own-password" })).status).toBe(200);
    const accepted = await fixtures.acceptByLink(existing, fixtures.tokenOf(answer.inviteUrl));
    expect(accepted.body).toEqual({ companyId: company.id, role: "admin" });
  });
});
