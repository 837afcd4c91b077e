import { and, eq } from "drizzle-orm";
import request from "supertest";
import { memberships } from "../../db/schema";
import { addMember, createCompany } from "../../testing/factories";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { memberFixtures } from "../../testing/member-fixtures";

const ctx = useTestContext();

const api = () => request(ctx.app);
const { companyWithFounder, memberIn, roleOf } = memberFixtures(ctx);

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
