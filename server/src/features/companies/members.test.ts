import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { invitationLifetimeMs } from "../../../../shared/identity";
import { auditEvents, invitations, mailOutbox, memberships, users } from "../../db/schema";
import { addMember, createCompany } from "../../testing/factories";
import { markSessionsProved } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();

const api = () => request(ctx.app);
let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}${++counter}-${Date.now().toString(36)}@example.com`;

/** A founder whose session is proved afresh, as seating an admin or a founder needs (its refusal is tested on its own). */
async function companyWithFounder(name = "Board Co") {
  const board = await ctx.board(name, { firstName: "Fiona", lastName: "Founder" });
  await markSessionsProved(ctx, board.founder.id);
  return board;
}

async function memberIn(companyId: number, role: "founder" | "admin" | "member" | "observer", fields: { firstName?: string } = {}) {
  const user = await ctx.signUp(fields);
  await addMember(ctx.db, companyId, user.id, role);
  return user;
}

async function roleOf(companyId: number, userId: number) {
  const [row] = await ctx.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.userId, userId)));
  return row?.role ?? null;
}

/** The keys of a JSON value at every depth, with the type of each leaf: what two answers' shapes are compared by. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, shapeOf(inner)]));
  }
  return typeof value;
}

const proveAddressOf = (userId: number) => ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));

describe("GET /api/companies/:id/members", () => {
  it("lists the members with the wire shape, and of each one's other boards only those the viewer sits on too", async () => {
    const { founder, company } = await companyWithFounder("Main Board");
    const both = await memberIn(company.id, "observer", { firstName: "Olga" });
    const shared = await createCompany(ctx.db, { name: "Side Board", founderId: founder.id, activate: false });
    await addMember(ctx.db, shared.id, both.id, "admin", false);
    const secret = await createCompany(ctx.db, { name: "Secret Board" });
    await addMember(ctx.db, secret.id, both.id, "member", false);
    const unrelated = await createCompany(ctx.db, { name: "Unrelated Board" });
    await addMember(ctx.db, unrelated.id, (await ctx.signUp()).id, "founder");

    const response = await api().get(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: founder.id,
        firstName: "Fiona",
        lastName: "Founder",
        username: founder.username,
        email: founder.email,
        role: "founder",
        profileImageUrl: null,
        isMultiCompanyMember: true,
        otherCompanies: [{ id: shared.id, name: "Side Board", role: "founder" }],
      },
      {
        id: both.id,
        firstName: "Olga",
        lastName: both.lastName,
        username: both.username,
        email: both.email,
        role: "observer",
        profileImageUrl: null,
        isMultiCompanyMember: true,
        otherCompanies: [{ id: shared.id, name: "Side Board", role: "admin" }],
      },
    ]);
    expect(response.text).not.toContain("Secret Board");
    expect(JSON.stringify(response.body)).not.toContain("password");

    // Olga sees her own boards, and the founder's other board she shares with him.
    const asOlga = await api().get(`/api/companies/${company.id}/members`).set("Authorization", both.bearer);
    const olgaSees = Object.fromEntries(
      asOlga.body.map((member: { id: number; otherCompanies: { name: string }[] }) => [
        member.id,
        member.otherCompanies.map((c) => c.name),
      ]),
    );
    expect(olgaSees).toEqual({ [founder.id]: ["Side Board"], [both.id]: ["Secret Board", "Side Board"] });
    // A member who sits on no other board sees none of anyone's.
    const plain = await memberIn(company.id, "member");
    const asPlain = await api().get(`/api/companies/${company.id}/members`).set("Authorization", plain.bearer);
    expect(asPlain.body.flatMap((member: { otherCompanies: unknown[] }) => member.otherCompanies)).toEqual([]);
    expect(asPlain.text).not.toContain("Side Board");
  });

  it("is open to every member, observers included", async () => {
    const { company } = await companyWithFounder();
    const observer = await memberIn(company.id, "observer");
    expect((await api().get(`/api/companies/${company.id}/members`).set("Authorization", observer.bearer)).status).toBe(200);
  });
});

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
    expect(
      await ctx.db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`),
    ).toEqual([]);
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
    const [made] = await ctx.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
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
    expect(
      await ctx.db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`),
    ).toHaveLength(1);
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

  it("lets admins invite, but not members or observers (403, nothing written)", async () => {
    const { company } = await companyWithFounder();
    const admin = await memberIn(company.id, "admin");
    expect(
      (
        await api()
          .post(`/api/companies/${company.id}/members`)
          .set("Authorization", admin.bearer)
          .send({ email: uniqueEmail("by-admin"), role: "member" })
      ).status,
    ).toBe(202);
    for (const role of ["member", "observer"] as const) {
      const user = await memberIn(company.id, role);
      const email = uniqueEmail("by-" + role);
      for (const body of [
        { email, role: "member" },
        { email, firstName: "X", lastName: "Y", role: "member", password: "secret-1" },
      ]) {
        const response = await api().post(`/api/companies/${company.id}/members`).set("Authorization", user.bearer).send(body);
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ message: "Only founders and admins can add members" });
      }
      expect(
        await ctx.db
          .select()
          .from(users)
          .where(sql`lower(${users.email}) = ${email}`),
      ).toEqual([]);
      expect(
        await ctx.db
          .select()
          .from(invitations)
          .where(sql`lower(${invitations.email}) = ${email}`),
      ).toEqual([]);
    }
  });

  it("seats an admin or a founder only from a session proved afresh (401 reauth_required); a member or an observer from any", async () => {
    const { founder, company } = await ctx.board("Stolen Session Board");
    const invite = (role: string) =>
      api()
        .post(`/api/companies/${company.id}/members`)
        .set("Authorization", founder.bearer)
        .send({ email: uniqueEmail(role), role });
    for (const role of ["admin", "founder"]) {
      const refused = await invite(role);
      expect(refused.status, role).toBe(401);
      expect(refused.body).toMatchObject({ code: "reauth_required" });
    }
    expect(await ctx.db.select({ id: invitations.id }).from(invitations).where(eq(invitations.companyId, company.id))).toEqual([]);
    for (const role of ["member", "observer"]) expect((await invite(role)).status, role).toBe(202);
    await markSessionsProved(ctx, founder.id);
    const seated = await invite("admin");
    expect(seated.status).toBe(202);
    // Resending it makes a new lasting link: the proof must still be fresh.
    ctx.clock.advance(11 * 60_000);
    const resent = await api()
      .post(`/api/companies/${company.id}/invitations/${seated.body.invitation.id}/resend`)
      .set("Authorization", founder.bearer);
    expect(resent.status).toBe(401);
  });

  it("lets only a founder invite a founder", async () => {
    const { founder, company } = await companyWithFounder();
    const admin = await memberIn(company.id, "admin");
    const byAdmin = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", admin.bearer)
      .send({ email: uniqueEmail("f"), role: "founder" });
    expect(byAdmin.status).toBe(403);
    const byFounder = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: uniqueEmail("f"), role: "founder" });
    expect(byFounder.status).toBe(202);
  });

  it("refuses a body naming another company", async () => {
    const { founder, company } = await companyWithFounder();
    const other = await createCompany(ctx.db, { name: "Other", founderId: founder.id, activate: false });
    const response = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: uniqueEmail("mismatch"), role: "member", companyId: other.id });
    expect(response.status).toBe(400);
    const message = "companyId must be the company in the address";
    expect(response.body).toEqual({ message, errors: [{ path: "companyId", message }] });
  });

  it("checks a body's companyId as every route does: an empty one names no company and is refused too", async () => {
    const { founder, company } = await companyWithFounder();
    const email = uniqueEmail("empty-company");
    const response = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email, role: "member", companyId: "" });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "companyId", message: "companyId must be the company in the address" }]);
    expect(await ctx.db.select().from(invitations).where(eq(invitations.email, email))).toEqual([]);
  });

  it("validates both forms with the shared schemas' messages", async () => {
    const { founder, company } = await companyWithFounder();
    const add = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: "nope", firstName: "", lastName: " ", role: "", password: "12345" });
    expect(add.status).toBe(400);
    expect(add.body.errors).toEqual([
      { path: "email", message: "Invalid email address" },
      { path: "firstName", message: "First name is required" },
      { path: "lastName", message: "Last name is required" },
      { path: "role", message: "Role is required" },
      { path: "password", message: "Password must be at least 6 characters" },
    ]);
    const invite = await api().post(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer).send({ email: "nope" });
    expect(invite.status).toBe(400);
    expect(invite.body.errors).toEqual([
      { path: "email", message: "Please enter a valid email" },
      { path: "role", message: "Role is required" },
    ]);
  });
});

describe("PATCH /api/users/:userId/role", () => {
  const changeRole = (actor: SignedUp, targetId: number, body: Record<string, unknown>) =>
    api().patch(`/api/users/${targetId}/role`).set("Authorization", actor.bearer).send(body);

  it("lets a founder or admin change a member's role in their active company", async () => {
    const { founder, company } = await companyWithFounder();
    const admin = await memberIn(company.id, "admin");
    const target = await memberIn(company.id, "member");
    const byFounder = await changeRole(founder, target.id, { role: "observer" });
    expect(byFounder.status).toBe(200);
    expect(byFounder.body).toEqual({ id: target.id, companyId: company.id, role: "observer" });
    expect((await changeRole(admin, target.id, { role: "admin" })).status).toBe(200);
    expect(await roleOf(company.id, target.id)).toBe("admin");
  });

  it("acts in the company named by the body when the actor administers it", async () => {
    const { founder, company } = await companyWithFounder();
    const target = await memberIn(company.id, "member");
    const elsewhere = await createCompany(ctx.db, { name: "Elsewhere", founderId: founder.id, activate: true });
    // The founder's active company is now "Elsewhere", where the target is not a member.
    expect((await changeRole(founder, target.id, { role: "observer" })).status).toBe(404);
    const named = await changeRole(founder, target.id, { role: "observer", companyId: company.id });
    expect(named.status).toBe(200);
    expect(named.body).toEqual({ id: target.id, companyId: company.id, role: "observer" });
    expect(elsewhere.id).not.toBe(company.id);
  });

  it("refuses a plain member or observer (403)", async () => {
    const { company } = await companyWithFounder();
    const target = await memberIn(company.id, "observer");
    for (const role of ["member", "observer"] as const) {
      const actor = await memberIn(company.id, role);
      const response = await changeRole(actor, target.id, { role: "admin" });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: "Only founders and admins can change roles" });
    }
    expect(await roleOf(company.id, target.id)).toBe("observer");
  });

  it("lets nobody change their own role", async () => {
    const { founder, company } = await companyWithFounder();
    const admin = await memberIn(company.id, "admin");
    for (const [actor, role] of [
      [founder, "admin"],
      [admin, "founder"],
      [admin, "member"],
    ] as const) {
      const response = await changeRole(actor, actor.id, { role });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: "You cannot change your own role" });
    }
    expect(await roleOf(company.id, founder.id)).toBe("founder");
    expect(await roleOf(company.id, admin.id)).toBe("admin");
  });

  it("lets an admin neither make nor unmake a founder; a founder may do both", async () => {
    const { founder, company } = await companyWithFounder();
    const admin = await memberIn(company.id, "admin");
    const target = await memberIn(company.id, "member");
    const make = await changeRole(admin, target.id, { role: "founder" });
    expect(make.status).toBe(403);
    expect(make.body).toEqual({ message: "Only a founder can make or remove a founder" });
    const unmake = await changeRole(admin, founder.id, { role: "observer" });
    expect(unmake.status).toBe(403);
    expect(await roleOf(company.id, founder.id)).toBe("founder");

    expect((await changeRole(founder, target.id, { role: "founder" })).status).toBe(200);
    expect((await changeRole(founder, target.id, { role: "admin" })).status).toBe(200);
    expect(await roleOf(company.id, target.id)).toBe("admin");
  });

  it("never leaves a company without a founder, even when two founders demote each other at once", async () => {
    for (let round = 0; round < 5; round += 1) {
      const { founder: first, company } = await companyWithFounder();
      const second = await memberIn(company.id, "founder");
      const [a, b] = await Promise.all([changeRole(first, second.id, { role: "admin" }), changeRole(second, first.id, { role: "admin" })]);
      expect([a.status, b.status].sort()).toEqual([200, 403]);
      const loser = a.status === 403 ? a : b;
      expect(loser.body).toEqual({ message: "Only a founder can make or remove a founder" });
      const founders = await ctx.db
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.companyId, company.id), eq(memberships.role, "founder")));
      expect(founders).toHaveLength(1);
    }
  });

  it("answers 404 for someone who is not a member, and for a company the actor is not in", async () => {
    const { founder, company } = await companyWithFounder();
    const outsider = await ctx.signUp();
    const notMember = await changeRole(founder, outsider.id, { role: "member" });
    expect(notMember.status).toBe(404);
    const other = await companyWithFounder("Other Board");
    const target = await memberIn(other.company.id, "member");
    const foreign = await changeRole(founder, target.id, { role: "observer", companyId: other.company.id });
    expect(foreign.status).toBe(404);
    expect(await roleOf(other.company.id, target.id)).toBe("member");
    expect(company.id).not.toBe(other.company.id);
  });

  it("asks for a company first when the actor has none, and validates the role", async () => {
    const loner = await ctx.signUp();
    expect((await changeRole(loner, loner.id + 1, { role: "member" })).status).toBe(400);
    const { founder, company } = await companyWithFounder();
    const target = await memberIn(company.id, "member");
    const bad = await changeRole(founder, target.id, { role: "owner" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: "role", message: "Role is required" }]);
  });
});
