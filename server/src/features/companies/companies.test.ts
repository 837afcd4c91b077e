import { and, eq, sql } from "drizzle-orm";
import request from "supertest";
import { maxLogoUrlLength } from "../../../../shared/companies";
import { auditEvents, companies, memberships, users } from "../../db/schema";
import { addMember, createCompany } from "../../testing/factories";
import { useTestContext } from "../../testing/test-context";
import { companyCreator, companyProfile as profile, tinyPng } from "../../testing/company-fixtures";

const ctx = useTestContext();

const api = () => request(ctx.app);
const createVia = companyCreator(ctx);

describe("POST /api/companies", () => {
  it("creates the company and the creator's founder membership, without changing the active company", async () => {
    const user = await ctx.signUp();
    const created = await createVia(user);
    expect(created).toMatchObject({ id: expect.any(Number), ...profile(), invitationMessage: null });
    const [membership] = await ctx.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.companyId, created.id), eq(memberships.userId, user.id)));
    expect(membership?.role).toBe("founder");
    const me = await api().get("/api/auth/user").set("Authorization", user.bearer);
    expect(me.body).toMatchObject({ companyId: null, role: null });
  });

  it("stores empty optional fields as null", async () => {
    const user = await ctx.signUp();
    const response = await api().post("/api/companies").set("Authorization", user.bearer).send({
      name: "  Bare Co  ",
      industry: "other",
      location: "Oslo",
      stage: "seed",
      description: "",
      logoUrl: "",
      website: "",
      employeeCount: "",
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: "Bare Co", description: null, logoUrl: null, website: null, employeeCount: null });
  });

  it("validates with the shared schemas' messages", async () => {
    const user = await ctx.signUp();
    const response = await api()
      .post("/api/companies")
      .set("Authorization", user.bearer)
      .send({ name: " ", industry: "", location: "", stage: "", website: "not a url" });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { path: "name", message: "Company name is required" },
      { path: "industry", message: "Industry is required" },
      { path: "location", message: "Location is required" },
      { path: "stage", message: "Funding stage is required" },
      { path: "website", message: "Please enter a valid URL" },
    ]);
    expect(response.body.message).toBe("Company name is required");
  });

  it("accepts only image data URLs and https addresses as the logo, up to 2 MB", async () => {
    const user = await ctx.signUp();
    const send = (logoUrl: string) => api().post("/api/companies").set("Authorization", user.bearer).send(profile({ logoUrl }));
    expect((await send("https://cdn.example.com/logo.png")).status).toBe(201);
    for (const bad of [
      "data:text/html;base64,PHNjcmlwdD4=",
      "javascript:alert(1)",
      "http://cdn.example.com/logo.png",
      "data:image/png,<svg>",
    ]) {
      const response = await send(bad);
      expect(response.status, bad).toBe(400);
      expect(response.body.errors).toEqual([{ path: "logoUrl", message: "The logo must be an image file" }]);
    }
    const nearLimit = `data:image/png;base64,${"A".repeat(maxLogoUrlLength - 100)}`;
    expect((await send(nearLimit)).status).toBe(201);
    const tooLarge = await send(`data:image/png;base64,${"A".repeat(maxLogoUrlLength)}`);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors[0]).toEqual({ path: "logoUrl", message: "The logo must be 2 MB or smaller" });
  });

  it("refuses a website that is not http(s)", async () => {
    const user = await ctx.signUp();
    const response = await api()
      .post("/api/companies")
      .set("Authorization", user.bearer)
      .send(profile({ website: "javascript:alert(1)" }));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ path: "website", message: "Please enter a valid URL" }]);
  });

  it("requires sign-in", async () => {
    expect((await api().post("/api/companies").send(profile())).status).toBe(401);
    expect((await api().get("/api/companies")).status).toBe(401);
  });

  it("is atomic: when the membership cannot be written, no company is left behind", async () => {
    const user = await ctx.signUp();
    // Make the founder membership fail inside the transaction, after the company row was inserted.
    await ctx.db.execute(sql`
      create or replace function fail_membership() returns trigger language plpgsql as $$
      begin raise exception 'membership refused for the test'; end $$`);
    await ctx.db.execute(sql`create trigger fail_membership before insert on memberships for each row execute function fail_membership()`);
    try {
      const before = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(companies);
      const response = await api()
        .post("/api/companies")
        .set("Authorization", user.bearer)
        .send(profile({ name: "Doomed Ventures" }));
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({ message: "Internal error" });
      const after = await ctx.db.select({ count: sql<number>`count(*)::int` }).from(companies);
      expect(after).toEqual(before);
      expect(await ctx.db.select().from(companies).where(eq(companies.name, "Doomed Ventures"))).toEqual([]);
      expect(await ctx.db.select().from(memberships).where(eq(memberships.userId, user.id))).toEqual([]);
      expect(await ctx.db.select().from(auditEvents).where(eq(auditEvents.actorId, user.id))).toEqual([]);
    } finally {
      await ctx.db.execute(sql`drop trigger fail_membership on memberships`);
      await ctx.db.execute(sql`drop function fail_membership()`);
    }
  });
});

describe("GET /api/companies", () => {
  it("lists the caller's companies with their role, by name, and nobody else's", async () => {
    const user = await ctx.signUp();
    const other = await ctx.signUp();
    const zeta = await createVia(user, { name: "Zeta Corp", logoUrl: "" });
    const alpha = await createVia(user, { name: "alpha partners" });
    const foreign = await createCompany(ctx.db, { name: "Foreign Ltd", founderId: other.id });
    await addMember(ctx.db, foreign.id, user.id, "observer", false);
    await createCompany(ctx.db, { name: "Not Mine Ltd", founderId: other.id });

    const response = await api().get("/api/companies").set("Authorization", user.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: alpha.id, name: "alpha partners", logoUrl: tinyPng, industry: "technology", role: "founder" },
      { id: foreign.id, name: "Foreign Ltd", logoUrl: null, industry: "Technology", role: "observer" },
      { id: zeta.id, name: "Zeta Corp", logoUrl: null, industry: "technology", role: "founder" },
    ]);
  });
});

describe("switching the active company", () => {
  it("PATCH /api/users/:id/active-company switches to a company of one's own and answers the user object", async () => {
    const user = await ctx.signUp();
    const first = await createVia(user, { name: "First Co" });
    const other = await ctx.signUp();
    const second = await createCompany(ctx.db, { name: "Second Co", founderId: other.id });
    await addMember(ctx.db, second.id, user.id, "admin", false);

    const toFirst = await api()
      .patch(`/api/users/${user.id}/active-company`)
      .set("Authorization", user.bearer)
      .send({ companyId: first.id });
    expect(toFirst.status).toBe(200);
    expect(toFirst.body).toMatchObject({ id: user.id, companyId: first.id, role: "founder" });
    expect(toFirst.body).not.toHaveProperty("passwordHash");

    const toSecond = await api()
      .patch(`/api/users/${user.id}/active-company`)
      .set("Authorization", user.bearer)
      .send({ companyId: String(second.id) });
    expect(toSecond.body).toMatchObject({ companyId: second.id, role: "admin" });
    const me = await api().get("/api/auth/user").set("Authorization", user.bearer);
    expect(me.body).toMatchObject({ companyId: second.id, role: "admin" });
  });

  it("PUT /api/users/:id {companyId} does the same (the wizard's call after creating a company)", async () => {
    const user = await ctx.signUp();
    const company = await createVia(user);
    const response = await api().put(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ companyId: company.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, companyId: company.id, role: "founder" });
  });

  it("refuses a company one is not a member of (403), and one that does not exist alike", async () => {
    const user = await ctx.signUp();
    const mine = await createVia(user);
    await api().put(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ companyId: mine.id });
    const other = await ctx.signUp();
    const theirs = await createCompany(ctx.db, { name: "Theirs Ltd", founderId: other.id });
    for (const companyId of [theirs.id, 999_999]) {
      for (const call of [api().patch(`/api/users/${user.id}/active-company`), api().put(`/api/users/${user.id}`)]) {
        const response = await call.set("Authorization", user.bearer).send({ companyId });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ message: "You are not a member of this company" });
      }
    }
    const [row] = await ctx.db.select({ active: users.activeCompanyId }).from(users).where(eq(users.id, user.id));
    expect(row?.active).toBe(mine.id);
  });

  it("lets nobody switch someone else's active company", async () => {
    const user = await ctx.signUp();
    const victim = await ctx.signUp();
    const company = await createVia(user);
    await addMember(ctx.db, company.id, victim.id, "member", false);
    for (const call of [api().patch(`/api/users/${victim.id}/active-company`), api().put(`/api/users/${victim.id}`)]) {
      const response = await call.set("Authorization", user.bearer).send({ companyId: company.id });
      expect(response.status).toBe(403);
    }
    const [row] = await ctx.db.select({ active: users.activeCompanyId }).from(users).where(eq(users.id, victim.id));
    expect(row?.active).toBeNull();
  });

  it("validates the body", async () => {
    const user = await ctx.signUp();
    for (const body of [{}, { companyId: "abc" }, { companyId: -1 }, { companyId: null }]) {
      const response = await api().patch(`/api/users/${user.id}/active-company`).set("Authorization", user.bearer).send(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toBe("Choose a company");
    }
  });
});
