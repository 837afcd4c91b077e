import { eq, sql } from "drizzle-orm";
import request from "supertest";
import { invitations } from "../../db/schema";
import { createCompany } from "../../testing/factories";
import { markSessionsProved } from "../../testing/second-factor-fixtures";
import { useTestContext } from "../../testing/test-context";
import { memberFixtures } from "../../testing/member-fixtures";

const ctx = useTestContext();

const api = () => request(ctx.app);
const { uniqueEmail, companyWithFounder, memberIn, accountsWith } = memberFixtures(ctx);

describe("POST /api/companies/:id/members", () => {
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
      expect(await accountsWith(email)).toEqual([]);
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
