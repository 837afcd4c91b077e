import request from "supertest";
import { secondFactorRequiredCode } from "../../../../shared/api-error";
import { companySecondFactorMessage, sessionSecondFactorMessage } from "../../http/guards";
import { enableTotp, signInWithTotp, withSecondFactorSession } from "../../testing/second-factor-fixtures";
import { useTestContext } from "../../testing/test-context";
import { resolutionFixtures } from "../../testing/resolution-fixtures";

// Votes, conflicts and a show of hands check membership in their service, under the resolution's row lock, not in
// the route's guard: the company's second-factor requirement must hold there too.

const ctx = useTestContext();
const { boardWith, created, vote } = resolutionFixtures(ctx);
const profile = { name: "Guarded Board", industry: "Technology", location: "London, United Kingdom", stage: "seed" };

describe("a resolution of a company that requires a second factor", () => {
  it("refuses the vote and the conflict of a member without one (403 with the code), and takes them once set up", async () => {
    const { founder, company, voters } = await boardWith(1);
    const director = voters[1]!;
    const id = await created(founder);
    const admin = await withSecondFactorSession(ctx, founder);
    const on = await request(ctx.app)
      .put(`/api/companies/${company.id}`)
      .set("Authorization", admin.bearer)
      .send({ ...profile, requireSecondFactor: true });
    expect(on.status).toBe(200);

    const refused = [
      await vote(director, id, "yes"),
      await request(ctx.app)
        .post(`/api/resolutions/${id}/conflict`)
        .set("Authorization", director.bearer)
        .send({ reason: "I hold shares" }),
    ];
    for (const response of refused) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ message: companySecondFactorMessage, code: secondFactorRequiredCode });
    }

    await enableTotp(ctx, director);
    const counted = await vote(director, id, "yes");
    expect(counted.status).toBe(200);
    expect(counted.body).toMatchObject({ yes: 1, userVote: "yes" });
  });

  it("refuses the vote of a session that skipped its second factor, even when the account has one", async () => {
    const { founder, company, voters } = await boardWith(1);
    const director = voters[1]!;
    const id = await created(founder);
    const admin = await withSecondFactorSession(ctx, founder);
    const on = await request(ctx.app)
      .put(`/api/companies/${company.id}`)
      .set("Authorization", admin.bearer)
      .send({ ...profile, requireSecondFactor: true });
    expect(on.status).toBe(200);
    // Signed in with the password alone, before the account had a factor.
    const login = await request(ctx.app).post("/api/auth/login").send({ username: director.username, password: director.password });
    expect(login.status).toBe(200);
    ctx.noteSecret(login.body.token);
    const phone = { ...director, bearer: `Bearer ${login.body.token}` };
    const { secret } = await enableTotp(ctx, director);

    const refused = await vote(phone, id, "yes");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: sessionSecondFactorMessage, code: secondFactorRequiredCode });
    const withCode = await signInWithTotp(ctx, director, secret);
    const counted = await vote({ ...director, bearer: withCode.bearer }, id, "no");
    expect(counted.status).toBe(200);
    expect(counted.body).toMatchObject({ no: 1, userVote: "no" });
  });
});
