import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { invitationLifetimeMs } from "../../../../shared/identity";
import { auditEvents, invitations, mailOutbox, users } from "../../db/schema";
import { useTestContext } from "../../testing/test-context";
import { memberFixtures } from "../../testing/member-fixtures";

const ctx = useTestContext();

const api = () => request(ctx.app);
const { uniqueEmail, companyWithFounder, memberIn, roleOf, accountsWith } = memberFixtures(ctx);

/** The keys of a JSON value at every depth, with the type of each leaf: what two answers' shapes are compared by. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, shapeOf(inner)]));
  }
  return typeof value;
}

const proveAddressOf = (userId: number) => ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));

describe("POST /api/companies/:id/members", () => {
  it("invites: 202 with the invitation and its link, only the link's digest kept, nobody made a member", async () => {
    const { founder, company } = await companyWithFounder("Invite Board");
    const email = uniqueEmail("invitee");
    const response = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email, role: "admin", companyId: String(company.id) });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      status: "invited",
      invitation: { id: expect.any(Number), email, role: "admin", createdAt: ctx.clock.now().toISOString(), expiresAt: expect.any(String) },
      inviteUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:5000\/invite\?token=[\w-]{43}$/),
    });
    expect(new Date(response.body.invitation.expiresAt).getTime() - ctx.clock.now().getTime()).toBe(invitationLifetimeMs);
    const token = new URL(response.body.inviteUrl).searchParams.get("token")!;
    const [row] = await ctx.db.select().from(invitations).where(eq(invitations.id, response.body.invitation.id));
    expect(row).toMatchObject({ status: "pending", sharedTokenHash: createHash("sha256").update(token).digest("hex") });
    expect(await accountsWith(email)).toEqual([]);
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "member.invite")));
    expect(event).toMatchObject({ actorId: founder.id, targetType: "invitation", details: { role: "admin" } });
    expect(JSON.stringify(await ctx.db.select().from(mailOutbox))).not.toContain(token);
  });

  it("answers an existing account's address exactly as an unknown one (status and shape), and makes no membership", async () => {
    const { founder, company } = await companyWithFounder("Second Board");
    const proved = await ctx.signUp({ password: "my-own-password" });
    await proveAddressOf(proved.id);
    const unproved = await ctx.signUp();
    const send = (body: Record<string, unknown>) =>
      api().post(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer).send(body);
    for (const form of [{}, { firstName: "Some", lastName: "One", password: "attacker-password" }]) {
      const unknown = await send({ email: uniqueEmail("nobody"), role: "observer", ...form });
      for (const account of [proved, unproved]) {
        const existing = await send({ email: account.email.toUpperCase(), role: "observer", ...form });
        expect(existing.status).toBe(unknown.status);
        expect(shapeOf(existing.body)).toEqual(shapeOf(unknown.body));
        expect(Object.keys(existing.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
        expect(await roleOf(company.id, account.id)).toBeNull();
      }
    }
    expect((await api().post("/api/auth/login").send({ username: proved.username, password: "attacker-password" })).status).toBe(401);
    const login = await api().post("/api/auth/login").send({ username: proved.username, password: "my-own-password" });
    expect(login.status).toBe(200);
    expect(login.body.companyId).toBeNull();
  });

  it("inviting a pending address again gives it a new link (the old one dies), the new role and a new expiry", async () => {
    const { founder, company } = await companyWithFounder();
    const email = uniqueEmail("again");
    const send = (body: Record<string, unknown>) =>
      api().post(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer).send(body);
    const first = await send({ email, role: "admin" });
    ctx.clock.advance(60_000);
    const second = await send({ email: email.toUpperCase(), role: "observer" });
    expect(second.status).toBe(202);
    expect(second.body.invitation.id).toBe(first.body.invitation.id);
    expect(second.body.inviteUrl).not.toBe(first.body.inviteUrl);
    expect(new Date(second.body.invitation.expiresAt).getTime()).toBe(new Date(first.body.invitation.expiresAt).getTime() + 60_000);
    const rows = await ctx.db.select().from(invitations).where(eq(invitations.companyId, company.id));
    expect(rows).toMatchObject([{ role: "observer", status: "pending" }]);
    const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
    expect(
      (
        await api()
          .post("/api/invitations/preview")
          .send({ token: tokenOf(first.body.inviteUrl) })
      ).status,
    ).toBe(404);
    expect(
      (
        await api()
          .post("/api/invitations/preview")
          .send({ token: tokenOf(second.body.inviteUrl) })
      ).body,
    ).toMatchObject({
      role: "observer",
      status: "pending",
    });
  });

  it("answers 409 for a member by their proved address, by either form", async () => {
    const { founder, company } = await companyWithFounder();
    const member = await memberIn(company.id, "member");
    await proveAddressOf(member.id);
    for (const body of [
      { email: member.email, role: "admin" },
      { email: member.email.toUpperCase(), firstName: "A", lastName: "B", role: "admin", password: "secret-1" },
    ]) {
      const response = await api().post(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer).send(body);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: "This person is already a member of the company" });
    }
    expect(await roleOf(company.id, member.id)).toBe("member");
    expect(await ctx.db.select().from(invitations).where(eq(invitations.companyId, company.id))).toEqual([]);
  });

  it("with the form's password and an unknown address: an account that cannot sign in, made for the address's holder to claim", async () => {
    const { founder, company } = await companyWithFounder("Welcome Board");
    const email = uniqueEmail("newbie");
    const response = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email, firstName: "Nina", lastName: "New", role: "member", password: "secret-1", companyId: company.id });
    expect(response.status).toBe(202);
    expect(response.body.status).toBe("invited");
    const [made] = await accountsWith(email);
    expect(made).toMatchObject({
      username: email,
      passwordHash: "",
      passwordSet: false,
      emailVerified: false,
      firstName: "Nina",
      lastName: "New",
      activeCompanyId: null,
    });
    expect(await roleOf(company.id, made!.id)).toBeNull();
    for (const username of [email, email.toUpperCase()]) {
      const login = await api().post("/api/auth/login").send({ username, password: "secret-1" });
      expect(login.status).toBe(401);
      expect(login.body).toEqual({ message: "Invalid username or password" });
    }
    // Another board adding the same address uses the same waiting account.
    const other = await companyWithFounder("Other Board");
    await api()
      .post(`/api/companies/${other.company.id}/members`)
      .set("Authorization", other.founder.bearer)
      .send({ email, firstName: "X", lastName: "Y", role: "admin", password: "other-secret" });
    expect(await accountsWith(email)).toHaveLength(1);
  });

  it("keeps of an invitation its address, role, links and answer: not the account Add Member made for the address", async () => {
    const columns = await ctx.db.execute(
      sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = 'invitations' order by column_name`,
    );
    expect((columns as unknown as { rows: { column_name: string }[] }).rows.map((row) => row.column_name)).toEqual([
      "company_id",
      "created_at",
      "email",
      "expires_at",
      "id",
      "invited_by",
      "responded_at",
      "role",
      "shared_token_hash",
      "status",
      "token_hash",
    ]);
  });
});
