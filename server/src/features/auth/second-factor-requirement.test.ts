import { and, desc, eq } from "drizzle-orm";
import request from "supertest";
import { reauthRequiredCode, secondFactorRequiredCode } from "../../../../shared/api-error";
import { auditEvents, sessions } from "../../db/schema";
import { companySecondFactorMessage, sessionSecondFactorMessage } from "../../http/guards";
import { addMember, createCompany, scheduleMeeting } from "../../testing/factories";
import { enableTotp, reauthenticate, signInWithTotp, withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestSmtp } from "../../testing/test-smtp";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();
const api = () => request(ctx.app);
const smtp = await useTestSmtp(ctx);
const profile = { name: "Guarded Board", industry: "Technology", location: "London, United Kingdom", stage: "seed" };

const requireIt = (user: SignedUp, companyId: number, on: boolean) =>
  api()
    .put(`/api/companies/${companyId}`)
    .set("Authorization", user.bearer)
    .send({ ...profile, requireSecondFactor: on });

/** The audit event of the company's latest profile change. */
const lastCompanyUpdate = async (companyId: number) =>
  (
    await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.companyId, companyId), eq(auditEvents.action, "company.update")))
      .orderBy(desc(auditEvents.id))
      .limit(1)
  )[0];

function expectSecondFactorRequired(response: request.Response, message = companySecondFactorMessage) {
  expect(response.status).toBe(403);
  expect(response.body).toEqual({ message, code: secondFactorRequiredCode });
}

/** Another session of a user who has no second factor yet: a sign-in with the password alone. */
async function passwordSession(user: SignedUp): Promise<string> {
  const response = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
  expect(response.status).toBe(200);
  ctx.noteSecret(response.body.token);
  return `Bearer ${response.body.token}`;
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
    const event = await lastCompanyUpdate(company.id);
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
    // Turning it off is a security change: a fresh proof of the password and a current code first.
    const stale = await requireIt(admin, company.id, false);
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ code: reauthRequiredCode });
    expectSecondFactorRequired(await api().get("/api/documents").set("Authorization", director.bearer));
    await smtp.deliver(ctx); // what earlier changes queued
    await reauthenticate(ctx, admin, admin.secret);
    expect((await requireIt(admin, company.id, false)).status).toBe(200);
    expect((await api().get("/api/documents").set("Authorization", director.bearer)).status).toBe(200);
    // The one who turned it off is told by e-mail; the company's record keeps the change.
    const notices = await smtp.deliver(ctx, founder.email);
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice?.subject).toBe("Security alert for your Quorum account");
    expect(notice?.text).toContain("You turned off the two-factor sign-in requirement of Guarded Board.");
    const event = await lastCompanyUpdate(company.id);
    expect(event).toMatchObject({ actorId: founder.id, details: expect.objectContaining({ requireSecondFactor: false }) });
  });

  it("refuses a session that skipped its second factor in a company that requires one, even when the account has a factor", async () => {
    const { founder, company, member } = await ctx.board("Guarded Board");
    const admin = await withSecondFactorSession(ctx, founder);
    expect((await requireIt(admin, company.id, true)).status).toBe(200);
    const director = await member("member");
    // A session signed in before the factor was added: the account has one now, the session never passed it.
    const phone = await passwordSession(director);
    const { secret } = await enableTotp(ctx, director);
    const meetingId = await scheduleMeeting(ctx.app, admin, new Date("2026-07-01T10:00:00Z"));
    const companyRoutes = (bearer: string) => [
      api().get(`/api/companies/${company.id}/settings`).set("Authorization", bearer),
      api().get("/api/documents").set("Authorization", bearer),
      api().get(`/api/documents/${meetingId}`).set("Authorization", bearer),
      api().get(`/api/users/${director.id}/calendar-feed?companyId=${company.id}`).set("Authorization", bearer),
    ];
    for (const response of await Promise.all(companyRoutes(phone))) expectSecondFactorRequired(response, sessionSecondFactorMessage);
    // The session that added the factor (freshly proved) passed it; so does a sign-in with it.
    for (const response of await Promise.all(companyRoutes(director.bearer))) expect(response.status).toBe(200);
    const withCode = await signInWithTotp(ctx, director, secret);
    for (const response of await Promise.all(companyRoutes(withCode.bearer))) expect(response.status).toBe(200);

    // A session row that never passed a second factor, however it came about, is refused the same.
    await ctx.db.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.userId, founder.id));
    expectSecondFactorRequired(await api().get("/api/documents").set("Authorization", admin.bearer), sessionSecondFactorMessage);
  });

  it("is turned on only from a session that passed the actor's second factor", async () => {
    const { founder, company } = await ctx.board("Guarded Board");
    const laptop = await passwordSession(founder);
    await enableTotp(ctx, founder);
    const refused = await api()
      .put(`/api/companies/${company.id}`)
      .set("Authorization", laptop)
      .send({ ...profile, requireSecondFactor: true });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: "requireSecondFactor", message: "Sign in again with your second factor first" }]);
    // The session that set the factor up passed it.
    expect((await requireIt(founder, company.id, true)).status).toBe(200);
  });
});
