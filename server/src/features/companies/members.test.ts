import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { invitations, memberships, notifications, users } from "../../db/schema";
import { addMember, createCompany } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();

const api = () => request(ctx.app);
let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}${++counter}-${Date.now().toString(36)}@example.com`;

const companyWithFounder = (name = "Board Co") => ctx.board(name, { firstName: "Fiona", lastName: "Founder" });

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

describe("GET /api/companies/:id/members", () => {
  it("lists the members with the wire shape and the other boards they sit on", async () => {
    const { founder, company } = await companyWithFounder("Main Board");
    const both = await memberIn(company.id, "observer", { firstName: "Olga" });
    const elsewhere = await createCompany(ctx.db, { name: "Side Board" });
    await addMember(ctx.db, elsewhere.id, both.id, "admin", false);
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
        isMultiCompanyMember: false,
        otherCompanies: [],
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
        otherCompanies: [{ id: elsewhere.id, name: "Side Board", role: "admin" }],
      },
    ]);
    expect(JSON.stringify(response.body)).not.toContain("password");
  });

  it("is open to every member, observers included", async () => {
    const { company } = await companyWithFounder();
    const observer = await memberIn(company.id, "observer");
    expect((await api().get(`/api/companies/${company.id}/members`).set("Authorization", observer.bearer)).status).toBe(200);
  });
});

describe("POST /api/companies/:id/members", () => {
  it("with a password and a new e-mail: creates the account (username = e-mail), which can sign in and sees the company", async () => {
    const { founder, company } = await companyWithFounder("Welcome Board");
    const email = uniqueEmail("newbie");
    const response = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email, firstName: "Nina", lastName: "New", role: "member", password: "secret-1", companyId: company.id });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: "created",
      member: { firstName: "Nina", lastName: "New", email, username: email, role: "member" },
    });

    const login = await api().post("/api/auth/login").send({ username: email, password: "secret-1" });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ companyId: company.id, role: "member" });
    const members = await api().get(`/api/companies/${company.id}/members`).set("Authorization", `Bearer ${login.body.token}`);
    expect(members.status).toBe(200);
  });

  it("with the e-mail of an existing account: adds the membership and never touches the password", async () => {
    const { founder, company } = await companyWithFounder("Second Board");
    const existing = await ctx.signUp({ email: uniqueEmail("Existing").toUpperCase(), password: "my-own-password", firstName: "Eve" });
    const otherCompany = await createCompany(ctx.db, { name: "Eve's Own" });
    await addMember(ctx.db, otherCompany.id, existing.id, "founder");

    const response = await api().post(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer).send({
      email: existing.email.toLowerCase(),
      firstName: "Someone",
      lastName: "Else",
      role: "observer",
      password: "attacker-password",
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: "added",
      member: {
        id: existing.id,
        firstName: "Eve",
        role: "observer",
        isMultiCompanyMember: true,
        otherCompanies: [{ id: otherCompany.id, name: "Eve's Own", role: "founder" }],
      },
    });
    expect((await api().post("/api/auth/login").send({ username: existing.username, password: "attacker-password" })).status).toBe(401);
    const login = await api().post("/api/auth/login").send({ username: existing.username, password: "my-own-password" });
    expect(login.status).toBe(200);
    // The active company stays the one they had. They are not told: Board Member Updates is off by default
    // (account/notifications.test.ts tells one who switched it on).
    expect(login.body.companyId).toBe(otherCompany.id);
    const told = await ctx.db.select().from(notifications).where(eq(notifications.userId, existing.id));
    expect(told).toEqual([]);
  });

  it("gives an added account with no company this one as its active company", async () => {
    const { founder, company } = await companyWithFounder();
    const loner = await ctx.signUp();
    await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: loner.email, role: "member" });
    const me = await api().get("/api/auth/user").set("Authorization", loner.bearer);
    expect(me.body).toMatchObject({ companyId: company.id, role: "member" });
  });

  it("answers 409 for someone already a member, by either form", async () => {
    const { founder, company } = await companyWithFounder();
    const member = await memberIn(company.id, "member");
    for (const body of [
      { email: member.email, role: "admin" },
      { email: member.email.toUpperCase(), firstName: "A", lastName: "B", role: "admin", password: "secret-1" },
    ]) {
      const response = await api().post(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer).send(body);
      expect(response.status).toBe(409);
      expect(response.body).toEqual({ message: "This person is already a member of the company" });
    }
    expect(await roleOf(company.id, member.id)).toBe("member");
  });

  it("without a password and an unknown e-mail: invites; registering with that e-mail joins with the invited role", async () => {
    const { founder, company } = await companyWithFounder("Invite Board");
    const email = uniqueEmail("invitee");
    const invite = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email, role: "admin", companyId: String(company.id) });
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ status: "invited", invitation: { email, role: "admin" } });
    // Inviting again refreshes the role rather than failing.
    const again = await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: email.toUpperCase(), role: "observer" });
    expect(again.status).toBe(201);
    expect(await ctx.db.select().from(invitations).where(eq(invitations.companyId, company.id))).toMatchObject([{ role: "observer" }]);

    const registered = await api()
      .post("/api/auth/register")
      .send({ username: `inv${counter}x`, email, password: "secret-1" });
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject({ companyId: company.id, role: "observer" });
    const members = await api().get(`/api/companies/${company.id}/members`).set("Authorization", founder.bearer);
    expect(members.body.find((member: { email: string }) => member.email === email)).toMatchObject({ role: "observer" });
    expect(await ctx.db.select().from(invitations).where(eq(invitations.companyId, company.id))).toEqual([]);
  });

  it("lets admins add and invite, but not members or observers (403, nothing written)", async () => {
    const { company } = await companyWithFounder();
    const admin = await memberIn(company.id, "admin");
    expect(
      (
        await api()
          .post(`/api/companies/${company.id}/members`)
          .set("Authorization", admin.bearer)
          .send({ email: uniqueEmail("by-admin"), role: "member" })
      ).status,
    ).toBe(201);
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

  it("lets only a founder add a founder", async () => {
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
    expect(byFounder.status).toBe(201);
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
