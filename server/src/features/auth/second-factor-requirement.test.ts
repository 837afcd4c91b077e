import { and, desc, eq } from "drizzle-orm";
import request from "supertest";
import { secondFactorRequiredCode } from "../../../../shared/api-error";
import { auditEvents } from "../../db/schema";
import { companySecondFactorMessage } from "../../http/guards";
import { addMember, createCompany, scheduleMeeting } from "../../testing/factories";
import { enableTotp, withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const api = () => request(ctx.app);
const profile = { name: "Guarded Board", industry: "Technology", location: "London, United Kingdom", stage: "seed" };

const requireIt = (user: SignedUp, companyId: number, on: boolean) =>
  api()
    .put(`/api/companies/${companyId}`)
    .set("Authorization", user.bearer)
    .send({ ...profile, requireSecondFactor: on });

function expectSecondFactorRequired(response: request.Response) {
  expect(response.status).toBe(403);
  expect(response.body).toEqual({ message: companySecondFactorMessage, code: secondFactorRequiredCode });
}

describe("a company that requires a second factor", () => {
  it("cannot be required by a founder without a second factor, who would lock themselves out", async () => {
    const { founder, company } = await ctx.board("Guarded Board");
    const refused = await requireIt(founder, company.id, true);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Set up two-factor sign-in for yourself first");
    expect(
      (await api().get(`/api/companies/${company.id}/settings`).set("Authorization", founder.bearer)).body.company.requireSecondFactor,
    ).toBe(false);
    // Nor at creation.
    const created = await api()
      .post("/api/companies")
      .set("Authorization", founder.bearer)
      .send({ ...profile, name: "Born Guarded", requireSecondFactor: true });
    expect(created.status).toBe(400);
    // Turning it off needs nothing.
    expect((await requireIt(founder, company.id, false)).status).toBe(200);
  });

  it("refuses a member without a second factor on its routes (403 with the code), keeps their own routes open, and lets them in once set up", async () => {
    const { founder, company, member } = await ctx.board("Guarded Board");
    await enableTotp(ctx, founder);
    const on = await requireIt(founder, company.id, true);
    expect(on.status).toBe(200);
    expect(on.body.requireSecondFactor).toBe(true);
    const [event] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.action, "company.update")))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(event?.details).toMatchObject({ requireSecondFactor: true, fields: expect.arrayContaining(["requireSecondFactor"]) });

    const meetingId = await scheduleMeeting(ctx.app, founder, new Date("2026-07-01T10:00:00Z"));
    const director = await member("member");
    const companyRoutes = () => [
      api().get(`/api/companies/${company.id}/settings`).set("Authorization", director.bearer), // by path
      api().get("/api/documents").set("Authorization", director.bearer), // the active company
      api().get(`/api/documents/${meetingId}`).set("Authorization", director.bearer), // a thing of the company
    ];
    for (const response of await Promise.all(companyRoutes())) expectSecondFactorRequired(response);

    // Their own account stays open, so they can set a factor up.
    expect((await api().get("/api/auth/user").set("Authorization", director.bearer)).status).toBe(200);
    expect((await api().get("/api/companies").set("Authorization", director.bearer)).status).toBe(200);
    expect(
      (await api().patch(`/api/users/${director.id}/active-company`).set("Authorization", director.bearer).send({ companyId: company.id }))
        .status,
    ).toBe(200);

    await enableTotp(ctx, director);
    for (const response of await Promise.all(companyRoutes())) expect(response.status).toBe(200);
    // The founder, who has a factor, was never refused.
    expect((await api().get(`/api/companies/${company.id}/settings`).set("Authorization", founder.bearer)).status).toBe(200);
  });

  it("applies to a company that is not the member's active one too, and only to that company", async () => {
    const founder = await ctx.signUp();
    await enableTotp(ctx, founder);
    const strict = await createCompany(ctx.db, { name: "Strict Board", founderId: founder.id });
    expect((await requireIt(founder, strict.id, true)).status).toBe(200);
    const relaxed = await createCompany(ctx.db, { name: "Relaxed Board", founderId: founder.id });

    const director = await ctx.signUp();
    await addMember(ctx.db, strict.id, director.id, "admin", false);
    await addMember(ctx.db, relaxed.id, director.id, "member", true);
    expectSecondFactorRequired(await api().get(`/api/companies/${strict.id}/settings`).set("Authorization", director.bearer));
    expect((await api().get(`/api/companies/${relaxed.id}/settings`).set("Authorization", director.bearer)).status).toBe(200);
    expect((await api().get("/api/documents").set("Authorization", director.bearer)).status).toBe(200);

    // A non-member learns nothing new: the usual 403 of a company they do not belong to.
    const outsider = await ctx.signUp();
    const refused = await api().get(`/api/companies/${strict.id}/settings`).set("Authorization", outsider.bearer);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "You are not a member of this company" });
  });

  it("closes the calendar feed of a member without a factor: no new address, and a subscribed one answers 404", async () => {
    const { founder, company, member } = await ctx.board("Guarded Board");
    const director = await member("member");
    const feed = await api().get(`/api/users/${director.id}/calendar-feed?companyId=${company.id}`).set("Authorization", director.bearer);
    expect(feed.status).toBe(200);
    const subscribed = (feed.body as { url: string }).url;
    const fetchFeed = () => api().get(subscribed.slice(subscribed.indexOf("/api/")));
    expect((await fetchFeed()).status).toBe(200);

    const admin = await withSecondFactorSession(ctx, founder);
    expect((await requireIt(admin, company.id, true)).status).toBe(200);
    expectSecondFactorRequired(
      await api().get(`/api/users/${director.id}/calendar-feed?companyId=${company.id}`).set("Authorization", director.bearer),
    );
    expect((await fetchFeed()).status).toBe(404);

    await enableTotp(ctx, director);
    expect((await fetchFeed()).status).toBe(200);
  });

  it("lets members without a factor in again once the requirement is turned off", async () => {
    const { founder, company, member } = await ctx.board("Guarded Board");
    const admin = await withSecondFactorSession(ctx, founder);
    expect((await requireIt(admin, company.id, true)).status).toBe(200);
    const director = await member("member");
    expectSecondFactorRequired(await api().get("/api/documents").set("Authorization", director.bearer));
    expect((await requireIt(admin, company.id, false)).status).toBe(200);
    expect((await api().get("/api/documents").set("Authorization", director.bearer)).status).toBe(200);
  });
});
