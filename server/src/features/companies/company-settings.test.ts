import { eq } from "drizzle-orm";
import request from "supertest";
import { auditEvents, companies } from "../../db/schema";
import { addMember } from "../../testing/factories";
import { useTestContext } from "../../testing/test-context";
import { companyCreator, companyProfile as profile, tinyPng } from "../../testing/company-fixtures";

const ctx = useTestContext();

const api = () => request(ctx.app);
const createVia = companyCreator(ctx);

describe("GET /api/companies/:id/settings", () => {
  it("answers the company and its members; pending invitations only to founders and admins", async () => {
    const founder = await ctx.signUp({ firstName: "Fay", lastName: "Founder" });
    const board = await ctx.signUp({ firstName: "Ben", lastName: "Board" });
    const company = await createVia(founder, { name: "Settings Co" });
    await addMember(ctx.db, company.id, board.id, "member");
    await api()
      .post(`/api/companies/${company.id}/members`)
      .set("Authorization", founder.bearer)
      .send({ email: "Pending@Example.com", role: "observer" });

    const asFounder = await api().get(`/api/companies/${company.id}/settings`).set("Authorization", founder.bearer);
    expect(asFounder.status).toBe(200);
    expect(asFounder.body.company).toMatchObject({ id: company.id, name: "Settings Co", website: "https://northwind.example.com" });
    expect(asFounder.body.members.map((member: { firstName: string; role: string }) => [member.firstName, member.role])).toEqual([
      ["Ben", "member"],
      ["Fay", "founder"],
    ]);
    expect(asFounder.body.invitations).toEqual([
      {
        id: expect.any(Number),
        email: "Pending@Example.com",
        role: "observer",
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        status: "pending",
        hasLink: true,
      },
    ]);

    const asMember = await api().get(`/api/companies/${company.id}/settings`).set("Authorization", board.bearer);
    expect(asMember.status).toBe(200);
    expect(asMember.body).not.toHaveProperty("invitations");
    expect(asMember.body.members).toHaveLength(2);
  });

  it("answers 403 for a malformed company id", async () => {
    const user = await ctx.signUp();
    expect((await api().get("/api/companies/abc/settings").set("Authorization", user.bearer)).status).toBe(403);
  });
});

describe("PUT /api/companies/:id", () => {
  it("lets founders and admins update the profile; an absent logo is kept, an empty one cleared", async () => {
    const founder = await ctx.signUp();
    const admin = await ctx.signUp();
    const company = await createVia(founder, { name: "Before Ltd" });
    await addMember(ctx.db, company.id, admin.id, "admin");

    const { logoUrl: _logo, ...withoutLogo } = profile({ name: "After Ltd", stage: "public", invitationMessage: "Welcome aboard" });
    const byFounder = await api().put(`/api/companies/${company.id}`).set("Authorization", founder.bearer).send(withoutLogo);
    expect(byFounder.status).toBe(200);
    expect(byFounder.body).toMatchObject({
      id: company.id,
      name: "After Ltd",
      stage: "public",
      invitationMessage: "Welcome aboard",
      logoUrl: tinyPng,
    });

    const byAdmin = await api()
      .put(`/api/companies/${company.id}`)
      .set("Authorization", admin.bearer)
      .send(profile({ name: "Admin Ltd", logoUrl: "", website: "" }));
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ name: "Admin Ltd", logoUrl: null, website: null, invitationMessage: "Welcome aboard" });

    const settings = await api().get(`/api/companies/${company.id}/settings`).set("Authorization", founder.bearer);
    expect(settings.body.company).toMatchObject({ name: "Admin Ltd", logoUrl: null });
    const audit = await ctx.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.companyId, company.id));
    expect(audit.map((row) => row.action).sort()).toEqual(["company.create", "company.update", "company.update"]);
  });

  it("dates its audit rows by the app's clock, as every audit row is", async () => {
    const founder = await ctx.signUp();
    ctx.clock.set("2026-06-02T10:00:00.000Z");
    const company = await createVia(founder, { name: "Dated Ltd" });
    ctx.clock.set("2026-06-03T11:30:00.000Z");
    expect(
      (
        await api()
          .put(`/api/companies/${company.id}`)
          .set("Authorization", founder.bearer)
          .send(profile({ name: "Dated Ltd" }))
      ).status,
    ).toBe(200);
    const audit = await ctx.db
      .select({ action: auditEvents.action, createdAt: auditEvents.createdAt })
      .from(auditEvents)
      .where(eq(auditEvents.companyId, company.id))
      .orderBy(auditEvents.id);
    expect(audit.map((row) => [row.action, row.createdAt.toISOString()])).toEqual([
      ["company.create", "2026-06-02T10:00:00.000Z"],
      ["company.update", "2026-06-03T11:30:00.000Z"],
    ]);
  });

  it("refuses members and observers (403) and leaves the company as it was", async () => {
    const founder = await ctx.signUp();
    const company = await createVia(founder, { name: "Steady Ltd" });
    for (const role of ["member", "observer"] as const) {
      const user = await ctx.signUp();
      await addMember(ctx.db, company.id, user.id, role);
      const response = await api()
        .put(`/api/companies/${company.id}`)
        .set("Authorization", user.bearer)
        .send(profile({ name: "Hijacked" }));
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: "Only founders and admins can update the company" });
    }
    const [row] = await ctx.db.select({ name: companies.name }).from(companies).where(eq(companies.id, company.id));
    expect(row?.name).toBe("Steady Ltd");
  });

  it("validates with the shared schemas' messages", async () => {
    const founder = await ctx.signUp();
    const company = await createVia(founder);
    const response = await api()
      .put(`/api/companies/${company.id}`)
      .set("Authorization", founder.bearer)
      .send({ name: "", industry: "x", location: "y", stage: "", website: "ftp://x" });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: "name", message: "Company name is required" },
      { path: "stage", message: "Funding stage is required" },
      { path: "website", message: "Please enter a valid URL" },
    ]);
  });
});
