import { and, eq } from "drizzle-orm";
import { invitationLifetimeMs } from "../../../../shared/identity";
import { auditEvents, invitations, users } from "../../db/schema";
import { linkTokenIn } from "../../testing/smtp-capture";
import { useInvitationContext } from "../../testing/invitation-fixtures";

const fixtures = await useInvitationContext();
const { ctx, api, smtp } = fixtures;

describe("an invitation's link, read from the mail", () => {
  it("previews the company, role and inviter with the address masked; registering with its token joins the company", async () => {
    const { founder, company } = await ctx.board("Link Board", { firstName: "Fiona", lastName: "Founder" });
    const email = fixtures.uniqueEmail("cfo");
    const invited = await fixtures.invite(founder, company.id, { email, role: "admin" });
    const token = await fixtures.mailedToken(email);
    // The mailed link is not the one the inviter was shown; of each only the digest is kept.
    const shared = fixtures.tokenOf(invited.inviteUrl);
    expect(token).not.toBe(shared);
    const [row] = await ctx.db.select().from(invitations).where(eq(invitations.id, invited.invitation.id));
    expect(row).toMatchObject({ tokenHash: fixtures.digest(token), sharedTokenHash: fixtures.digest(shared) });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(shared);

    // Either link previews the same, and nothing of whether an account holds the address.
    for (const link of [token, shared]) {
      const shown = await fixtures.preview(link);
      expect(shown.status).toBe(200);
      expect(shown.body).toEqual({
        companyName: "Link Board",
        role: "admin",
        inviterName: "Fiona Founder",
        email: fixtures.masked(email),
        expiresAt: new Date(ctx.clock.now().getTime() + invitationLifetimeMs).toISOString(),
        status: "pending",
      });
    }

    const joined = await fixtures.register({ email, invitationToken: token });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ email, companyId: company.id, role: "admin", emailVerified: true });
    expect(await fixtures.membershipOf(company.id, joined.body.id)).toBe("admin");
    expect(await fixtures.statusOf(invited.invitation.id)).toBe("accepted");
    expect((await fixtures.preview(token)).body.status).toBe("accepted");
    expect((await fixtures.preview(shared)).body.status).toBe("accepted");
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "member.join")));
    expect(event).toMatchObject({ actorId: joined.body.id, targetType: "user", targetId: String(joined.body.id) });
    // Used once: registering again with it makes nothing.
    const otherAddress = fixtures.uniqueEmail("again");
    const again = await fixtures.register({ email: otherAddress, invitationToken: token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "This invitation was already accepted" });
    expect(await fixtures.accountsWith(otherAddress)).toEqual([]);
    expect((await fixtures.register({ email, invitationToken: shared })).status).toBe(409);
  });

  it("registering with the token of an invitation to another address is a 403 naming that address masked, and creates nothing", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("carol");
    const { inviteUrl } = await fixtures.invite(founder, company.id, { email, role: "member" });
    for (const token of [fixtures.tokenOf(inviteUrl), await fixtures.mailedToken(email)]) {
      const stranger = fixtures.uniqueEmail("stranger");
      const response = await fixtures.register({ email: stranger, invitationToken: token });
      expect(response.status).toBe(403);
      expect(response.body.message).toContain(fixtures.masked(email));
      expect(response.body.message).not.toContain(email);
      expect(await fixtures.accountsWith(stranger)).toEqual([]);
    }
  });

  it("a forged token is a 404, a malformed one a 400, and neither creates an account", async () => {
    const forged = "A".repeat(43);
    expect((await fixtures.preview(forged)).status).toBe(404);
    const email = fixtures.uniqueEmail("forger");
    const byForged = await fixtures.register({ email, invitationToken: forged });
    expect(byForged.status).toBe(404);
    expect(byForged.body).toEqual({ message: "This invitation link is not valid. Ask for a new one." });
    const malformed = await fixtures.register({ email, invitationToken: "not a token!" });
    expect(malformed.status).toBe(400);
    expect((await fixtures.preview("../../etc")).status).toBe(400);
    expect(await fixtures.accountsWith(email)).toEqual([]);
  });

  it("registering with an invited address but without the token joins nothing", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("squatter");
    const { invitation } = await fixtures.invite(founder, company.id, { email, role: "admin" });
    const registered = await fixtures.register({ email });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ companyId: null, role: null, emailVerified: false });
    expect(await fixtures.membershipOf(company.id, registered.body.id)).toBeNull();
    expect(await fixtures.statusOf(invitation.id)).toBe("pending");
    const members = await api().get(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer);
    expect(members.body.map((member: { id: number }) => member.id)).toEqual([founder.id]);
  });
});

describe("the link shown to the inviter (inviteUrl): it joins, but proves no address", () => {
  const confirmSubject = "Confirm your e-mail address for Quorum";

  it("an inviter who registers the invited address by it gets an unconfirmed account that sees no other board's invitation", async () => {
    const { founder, company } = await ctx.board("Inviter's Board");
    const other = await ctx.board("Other Board");
    const email = fixtures.uniqueEmail("target");
    const { inviteUrl } = await fixtures.invite(founder, company.id, { email, role: "member" });
    const elsewhere = await fixtures.invite(other.founder, other.company.id, { email, role: "admin" });

    // The inviter holds this link too: registering the address by it joins, and proves nothing.
    const squatter = await fixtures.register({ email, invitationToken: fixtures.tokenOf(inviteUrl) });
    expect(squatter.status).toBe(201);
    expect(squatter.body).toMatchObject({ email, emailVerified: false, companyId: company.id, role: "member" });
    const bearer = `Bearer ${squatter.body.token}`;
    expect((await api().get("/api/invitations").set("Authorization", bearer)).body).toEqual([]);
    const taken = await api().post(`/api/invitations/${elsewhere.invitation.id}/accept`).set("Authorization", bearer);
    expect(taken.status).toBe(404);
    expect(await fixtures.statusOf(elsewhere.invitation.id)).toBe("pending");

    // The confirmation goes to the address; the address's holder joins the other board by its mailed link and so
    // proves the address, which the unconfirmed account loses.
    const mails = await smtp.deliver(ctx, email);
    expect(mails.map((mail) => mail.subject)).toContain(confirmSubject);
    const otherMail = mails.find((mail) => mail.subject === "Invitation to join Other Board on Quorum")!;
    const holder = await fixtures.register({ email, invitationToken: linkTokenIn(otherMail, "/invite") });
    expect(holder.status).toBe(201);
    expect(holder.body).toMatchObject({ email, emailVerified: true, companyId: other.company.id, role: "admin" });
    const [squatterNow] = await ctx.db.select().from(users).where(eq(users.id, squatter.body.id));
    expect(squatterNow).toMatchObject({ email: "", emailVerified: false });
  });

  it("registering by it makes an unconfirmed account that joins and is mailed the usual confirmation; Add Member's account gives way", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("newcomer");
    const { invitation, inviteUrl } = await fixtures.invite(founder, company.id, {
      email,
      firstName: "New",
      lastName: "Comer",
      role: "member",
      password: "admin-chosen-1",
    });
    expect(await fixtures.accountsWith(email)).toEqual([expect.objectContaining({ passwordSet: false })]);
    const joined = await fixtures.register({ username: email, email, invitationToken: fixtures.tokenOf(inviteUrl) });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ username: email, emailVerified: false, companyId: company.id, role: "member" });
    expect(await fixtures.accountsWith(email)).toEqual([
      expect.objectContaining({ id: joined.body.id, passwordSet: true, emailVerified: false }),
    ]);
    expect(await fixtures.statusOf(invitation.id)).toBe("accepted");
    expect(await fixtures.membershipOf(company.id, joined.body.id)).toBe("member");
    expect(await fixtures.subjectsTo(email)).toEqual(expect.arrayContaining([confirmSubject]));
  });

  it("signed in, accepting by it joins and leaves the address as it was; Add Member's account gives way", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("unconfirmed");
    const holder = await ctx.signUp({ email, confirmAddress: false });
    const { invitation, inviteUrl } = await fixtures.invite(founder, company.id, {
      email,
      firstName: "Un",
      lastName: "Confirmed",
      role: "member",
      password: "admin-chosen-1",
    });
    expect(await fixtures.accountsWith(email)).toHaveLength(2);
    expect((await fixtures.acceptByLink(holder, fixtures.tokenOf(inviteUrl))).body).toEqual({ companyId: company.id, role: "member" });
    const me = await api().get("/api/auth/user").set("Authorization", holder.bearer);
    expect(me.body).toMatchObject({ email, emailVerified: false, companyId: company.id, role: "member" });
    expect(await fixtures.accountsWith(email)).toEqual([expect.objectContaining({ id: holder.id })]);
    expect(await fixtures.statusOf(invitation.id)).toBe("accepted");
    // An account that proved its address keeps it proved.
    const proved = await ctx.signUp();
    const second = await fixtures.invite(founder, company.id, { email: proved.email, role: "observer" });
    expect((await fixtures.acceptByLink(proved, fixtures.tokenOf(second.inviteUrl))).status).toBe(200);
    expect((await api().get("/api/auth/user").set("Authorization", proved.bearer)).body).toMatchObject({ emailVerified: true });
  });
});
