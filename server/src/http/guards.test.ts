import express from "express";
import request from "supertest";
import { addMember } from "../testing/factories";
import { useTestContext } from "../testing/test-context";
import { errorHandler } from "./errors";
import { createGuards, tenantOf } from "./guards";

/** The guard reads a company only from the parameter it is told to: a thing's `:id` is never a company id. */
const ctx = useTestContext();

function appWith(mount: (app: express.Express, guards: ReturnType<typeof createGuards>) => void) {
  const app = express();
  app.use((req, _res, next) => {
    req.log = ctx.deps.logger;
    next();
  });
  mount(app, createGuards(ctx.deps));
  app.use(errorHandler);
  return app;
}

describe("requireCompanyMember with a company parameter", () => {
  it("does not take a route's :id for the company id", async () => {
    const { founder, company } = await ctx.board("Guarded Ltd");
    const app = appWith((app, guards) => {
      app.get("/things/:id", ...guards.requireCompanyMember(), (req, res) => {
        res.json({ company: tenantOf(req).company.id });
      });
    });
    const response = await request(app).get(`/things/${company.id}`).set("Authorization", founder.bearer);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: "You are not a member of this company" });
  });

  it("reads the named parameter", async () => {
    const { founder, company } = await ctx.board("Named Ltd");
    const app = appWith((app, guards) => {
      app.get(
        "/boards/:boardId/things/:id",
        ...guards.requireCompanyMember({ company: { from: "param", param: "boardId" } }),
        (req, res) => {
          res.json({ company: tenantOf(req).company.id });
        },
      );
    });
    const response = await request(app).get(`/boards/${company.id}/things/1`).set("Authorization", founder.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ company: company.id });
  });
});

describe("requireCompanyMember's cost", () => {
  it("adds no query for the caller's active company (the cached session holds the role), one for another company", async () => {
    const { founder, company } = await ctx.board("Active Ltd");
    const other = await ctx.board("Second Ltd");
    await addMember(ctx.db, other.company.id, founder.id, "admin", false);
    const app = appWith((app, guards) => {
      app.get("/c/:companyId", ...guards.requireCompanyMember({ company: { from: "param", param: "companyId" } }), (req, res) => {
        res.json(tenantOf(req));
      });
    });
    const call = (id: number) => request(app).get(`/c/${id}`).set("Authorization", founder.bearer);
    // The session is read (and its last-used time written) now, then answered from the instance's cache.
    expect(await ctx.countQueries(() => call(company.id))).toBeGreaterThan(0);
    let active: request.Response | undefined;
    await expect.poll(() => ctx.countQueries(async () => (active = await call(company.id))), { timeout: 2000 }).toBe(0);
    expect(active!.body).toMatchObject({ company: { id: company.id, name: "Active Ltd" }, role: "founder" });
    let elsewhere: request.Response | undefined;
    expect(await ctx.countQueries(async () => (elsewhere = await call(other.company.id)))).toBe(1);
    expect(elsewhere!.body).toMatchObject({ company: { id: other.company.id, name: "Second Ltd" }, role: "admin" });
  });
});
