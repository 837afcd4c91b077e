import { and, eq, sql } from "drizzle-orm";
import type request from "supertest";
import { invitationLifetimeMs } from "../../../../shared/identity";
import { auditEvents, memberships, users } from "../../db/schema";
import { addMember, createCompany } from "../../testing/factories";
import type { SignedUp } from "../../testing/test-context";
import { useInvitationContext } from "../../testing/invitation-fixtures";

const fixtures = await useInvitationContext();
const { ctx, api } = fixtures;

describe("POST /api/invitations/accept (signed in)", () => {
  it("joins the holder of the invited address, proves the address, and takes it from any other account holding it unproved", async () => {
    const { founder, company } = await ctx.board("Accept Board");
    const email = fixtures.uniqueEmail("Dana");
    const dana = await ctx.signUp({ email, confirmAddress: false });
    // Another account naming the same address, never proved (as a sign-up whose link was not followed).
    const [rival] = await ctx.db
      .insert(users)
      .values({ username: fixtures.uniqueName("rival"), email: email.toUpperCase(), passwordHash: "unused", emailVerified: false })
      .returning();
    const { invitation } = await fixtures.invite(founder, company.id, { email: email.toLowerCase(), role: "member" });
    const token = await fixtures.mailedToken(email.toLowerCase());

    const accepted = await fixtures.acceptByLink(dana, token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ companyId: company.id, role: "member" });
    const me = await api().get("/api/auth/user").set("Authorization", dana.bearer);
    expect(me.body).toMatchObject({ email, emailVerified: true, companyId: company.id, role: "member" });
    const [rivalNow] = await ctx.db.select().from(users).where(eq(users.id, rival!.id));
    expect(rivalNow).toMatchObject({ email: "", emailVerified: false });
    expect(await fixtures.statusOf(invitation.id)).toBe("accepted");

    // Twice: 409, and nothing more is written.
    const twice = await fixtures.acceptByLink(dana, token);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: "This invitation was already accepted" });
  });

  it.runIf(process.env.QUORUM_TEST_DB === "postgres")(
    "answers 409, not 500, when another account proves the address while the acceptance waits to write it",
    async () => {
      const { founder, company } = await ctx.board();
      const email = fixtures.uniqueEmail("contested");
      const holder = await ctx.signUp({ email, confirmAddress: false });
      const { invitation } = await fixtures.invite(founder, company.id, { email, role: "member" });
      const token = await fixtures.mailedToken(email);
      let pending: Promise<request.Response> | undefined;
      await ctx.db.transaction(async (tx) => {
        // Another account proving the address, not yet committed: the acceptance cannot see it, and its write of the
        // proved address waits on the unique index until this transaction ends (`then` sends the request now).
        await tx.insert(users).values({ username: fixtures.uniqueName("rival"), email, passwordHash: "unused", emailVerified: true });
        pending = fixtures.acceptByLink(holder, token).then((response) => response);
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
      expect(await fixtures.membershipOf(company.id, holder.id)).toBeNull();
      expect(await fixtures.statusOf(invitation.id)).toBe("pending");
    },
  );

  it("keeps the active company of one who has one", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("busy");
    const { founder: busy, company: own } = await ctx.board("Own Board", { email });
    await fixtures.invite(founder, company.id, { email, role: "observer" });
    expect((await fixtures.acceptByLink(busy, await fixtures.mailedToken(email))).status).toBe(200);
    const me = await api().get("/api/auth/user").set("Authorization", busy.bearer);
    expect(me.body.companyId).toBe(own.id);
    expect(await fixtures.membershipOf(company.id, busy.id)).toBe("observer");
  });

  it("refuses a signed-in account of another address with 403 naming the invited address masked; the invitation stays", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("erin");
    const { invitation } = await fixtures.invite(founder, company.id, { email, role: "admin" });
    const other = await ctx.signUp();
    const response = await fixtures.acceptByLink(other, await fixtures.mailedToken(email));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      message: `This invitation was sent to ${fixtures.masked(email)}. Sign in with that address to accept it.`,
    });
    expect(await fixtures.membershipOf(company.id, other.id)).toBeNull();
    expect(await fixtures.statusOf(invitation.id)).toBe("pending");
  });

  it("two accepts at once: one joins, the other is a 409", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("racer");
    const racer = await ctx.signUp({ email });
    await fixtures.invite(founder, company.id, { email, role: "member" });
    const token = await fixtures.mailedToken(email);
    const answers = await Promise.all([fixtures.acceptByLink(racer, token), fixtures.acceptByLink(racer, token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await fixtures.membershipOf(company.id, racer.id)).toBe("member");
  });

  it("an expired invitation is a 410 (and previews as expired); resending gives it a new link", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("late");
    const late = await ctx.signUp({ email });
    const { invitation } = await fixtures.invite(founder, company.id, { email, role: "member" });
    const token = await fixtures.mailedToken(email);
    ctx.clock.advance(invitationLifetimeMs + 1000);
    // Sessions idle that long have ended too.
    const lateNow = await fixtures.signIn(late);
    const founderNow = await fixtures.signIn(founder);
    expect((await fixtures.preview(token)).body.status).toBe("expired");
    const response = await fixtures.acceptByLink(lateNow, token);
    expect(response.status).toBe(410);
    expect(response.body).toEqual({ message: "This invitation has expired. Ask for a new one." });
    expect(await fixtures.membershipOf(company.id, late.id)).toBeNull();
    const listed = await api().get(`/api/companies/${company.id}/invitations`).set("Authorization", founderNow.bearer);
    expect(listed.body.find((row: { id: number }) => row.id === invitation.id)).toMatchObject({ status: "expired", hasLink: true });

    const resent = await api()
      .post(`/api/companies/${company.id}/invitations/${invitation.id}/resend`)
      .set("Authorization", founderNow.bearer);
    expect(resent.status).toBe(200);
    const fresh = await fixtures.mailedToken(email);
    expect(fresh).not.toBe(fixtures.tokenOf(resent.body.inviteUrl));
    expect((await fixtures.acceptByLink(lateNow, fresh)).status).toBe(200);
  });

  it("a revoked invitation is a 410; revoking it again a 409, one of another company a 404", async () => {
    const { founder, company } = await ctx.board();
    const email = fixtures.uniqueEmail("revoked");
    const holder = await ctx.signUp({ email });
    const { invitation } = await fixtures.invite(founder, company.id, { email, role: "member" });
    const token = await fixtures.mailedToken(email);
    const revoke = (by: SignedUp, companyId: number) =>
      api().delete(`/api/companies/${companyId}/invitations/${invitation.id}`).set("Authorization", by.bearer);
    const other = await ctx.board("Other Board");
    expect((await revoke(other.founder, other.company.id)).status).toBe(404);
    expect((await revoke(founder, company.id)).status).toBe(204);
    expect((await revoke(founder, company.id)).status).toBe(409);
    expect((await fixtures.preview(token)).body.status).toBe("revoked");
    const response = await fixtures.acceptByLink(holder, token);
    expect(response.status).toBe(410);
    expect(await fixtures.membershipOf(company.id, holder.id)).toBeNull();
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "member.invite_revoked")));
    expect(event).toMatchObject({ actorId: founder.id, targetId: String(invitation.id) });
  });
});

describe("invitations on the dashboard (GET /api/invitations, accept and decline by id)", () => {
  it("lists pending invitations to the caller's proved address only; accept and decline are the caller's alone", async () => {
    const first = await ctx.board("First Board", { firstName: "Ivy", lastName: "Inviter" });
    const second = await ctx.board("Second Board");
    const email = fixtures.uniqueEmail("dash");
    const holder = await ctx.signUp({ email, confirmAddress: false });
    const a = await fixtures.invite(first.founder, first.company.id, { email, role: "member" });
    const b = await fixtures.invite(second.founder, second.company.id, { email: email.toUpperCase(), role: "observer" });
    const mine = () => api().get("/api/invitations").set("Authorization", holder.bearer);
    // An address not yet proved grants nothing.
    expect((await mine()).body).toEqual([]);
    expect((await api().post(`/api/invitations/${a.invitation.id}/accept`).set("Authorization", holder.bearer)).status).toBe(404);

    await fixtures.proveAddressOf(holder);
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
    await fixtures.proveAddressOf(outsider);
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
    expect(await fixtures.membershipOf(second.company.id, holder.id)).toBeNull();
    expect(await fixtures.statusOf(b.invitation.id)).toBe("declined");
    expect((await mine()).body).toEqual([]);
    expect((await api().post(`/api/invitations/${b.invitation.id}/accept`).set("Authorization", holder.bearer)).status).toBe(404);
    // A declined link is spent.
    expect((await fixtures.acceptByLink(holder, fixtures.tokenOf(b.inviteUrl))).status).toBe(410);
  });
});

describe("DELETE /api/companies/:companyId/members/me", () => {
  it("ends the caller's membership (an audit event) and clears it as their active company", async () => {
    const { company, member } = await ctx.board("Leaving Board");
    const leaver = await member("admin");
    const response = await api().delete(`/api/companies/${company.id}/members/me`).set("Authorization", leaver.bearer);
    expect(response.status).toBe(204);
    expect(await fixtures.membershipOf(company.id, leaver.id)).toBeNull();
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
    expect(await fixtures.membershipOf(company.id, founder.id)).toBe("founder");

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
