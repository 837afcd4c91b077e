import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import request from "supertest";
import { auditEvents, sessions, users } from "../../db/schema";
import { reauthenticate } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";
import { chromeOnMac, sessionFixtures } from "../../testing/session-fixtures";

const ctx = useTestContext();
const { signInAgain, sessionCookieOf } = sessionFixtures(ctx);

const api = () => request(ctx.app);

describe("PATCH /api/users/:id (profile)", () => {
  it("changes the caller's names and photo, answers the user object, and the current user shows it", async () => {
    const user = await ctx.signUp();
    const response = await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({
      firstName: " Ada ",
      lastName: "Lovelace",
      profileImageUrl: "https://images.example.com/ada.png",
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: user.id,
      username: user.username,
      email: user.email,
      firstName: "Ada",
      lastName: "Lovelace",
      role: null,
      isPlatformAdmin: user.isPlatformAdmin,
      profileImageUrl: "https://images.example.com/ada.png",
      companyId: null,
      secondFactor: false,
      emailVerified: user.emailVerified,
      pendingEmail: null,
    });
    const me = await api().get("/api/auth/user").set("Authorization", user.bearer);
    expect(me.body).toMatchObject({ firstName: "Ada", lastName: "Lovelace", email: user.email });
  });

  it("keeps absent fields, and an empty image URL removes the photo", async () => {
    const user = await ctx.signUp({ firstName: "Grace", lastName: "Hopper" });
    await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ profileImageUrl: "https://example.com/g.png" });
    const response = await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ profileImageUrl: "" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ firstName: "Grace", lastName: "Hopper", email: user.email, profileImageUrl: null });
  });

  it("asks for a fresh proof before a new e-mail address (401 reauth_required), and then changes nothing", async () => {
    const user = await ctx.signUp();
    const response = await api()
      .patch(`/api/users/${user.id}`)
      .set("Authorization", user.bearer)
      .send({ firstName: "Changed", email: "another.address@example.com" });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: expect.any(String), code: "reauth_required" });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ email: user.email, pendingEmail: null, firstName: "Test" });
  });

  it("shows a new address as pending, even one another account holds, and leaves that account alone", async () => {
    const taken = await ctx.signUp({ email: "taken.address@example.com" });
    await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, taken.id));
    const user = await ctx.signUp();
    // POST /api/auth/reauth is not on this branch: the session is marked as just re-proved in the database, by its token's SHA-256.
    const tokenHash = createHash("sha256").update(user.token).digest("hex");
    await ctx.db.update(sessions).set({ reauthAt: ctx.clock.now() }).where(eq(sessions.tokenHash, tokenHash));
    const response = await api()
      .patch(`/api/users/${user.id}`)
      .set("Authorization", user.bearer)
      .send({ firstName: "Changed", email: "TAKEN.Address@Example.com" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ email: user.email, pendingEmail: "TAKEN.Address@Example.com", firstName: "Changed" });
    const [row] = await ctx.db.select().from(users).where(eq(users.id, taken.id));
    expect(row).toMatchObject({ email: "taken.address@example.com", emailVerified: true, pendingEmail: null });
  });

  it("lets a user keep their own e-mail in another case", async () => {
    const user = await ctx.signUp({ email: "own.case@example.com" });
    const response = await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ email: "Own.Case@example.com" });
    expect(response.status).toBe(200);
    expect(response.body.email).toBe("Own.Case@example.com");
  });

  it("answers the profile form's messages (400)", async () => {
    const user = await ctx.signUp();
    const response = await api()
      .patch(`/api/users/${user.id}`)
      .set("Authorization", user.bearer)
      .send({ firstName: " ", lastName: "", email: "not-an-address", profileImageUrl: "http://example.com/plain.png" });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(
      expect.arrayContaining([
        { path: "firstName", message: "First name is required" },
        { path: "lastName", message: "Last name is required" },
        { path: "email", message: "Invalid email address" },
        { path: "profileImageUrl", message: "Please enter a valid https URL" },
      ]),
    );
    for (const url of ["javascript:alert(1)", "data:image/png;base64,AAAA", "not a url"]) {
      const refused = await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ profileImageUrl: url });
      expect(refused.status, url).toBe(400);
    }
    const unknown = await api().patch(`/api/users/${user.id}`).set("Authorization", user.bearer).send({ isPlatformAdmin: true });
    expect(unknown.status).toBe(400);
  });

  it("is the user's own: another user gets 403 and nothing changes; the cookie alone is refused (401)", async () => {
    const owner = await ctx.signUp({ firstName: "Owner" });
    const other = await ctx.signUp();
    const foreign = await api().patch(`/api/users/${owner.id}`).set("Authorization", other.bearer).send({ firstName: "Hijacked" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: "You can only change your own account" });
    const cookie = await sessionCookieOf(owner);
    const byCookie = await api().patch(`/api/users/${owner.id}`).set("Cookie", cookie).send({ firstName: "Forged" });
    expect(byCookie.status).toBe(401);
    const [row] = await ctx.db.select().from(users).where(eq(users.id, owner.id));
    expect(row!.firstName).toBe("Owner");
  });
});

describe("PATCH /api/users/:id/password", () => {
  const change = (user: SignedUp, bearer: string, body: object) =>
    api().patch(`/api/users/${user.id}/password`).set("Authorization", bearer).send(body);

  it("changes the password, ends every other session, keeps this one, and the new password signs in", async () => {
    const user = await ctx.signUp();
    const other = await signInAgain(user);
    const third = await signInAgain(user, chromeOnMac);
    const body = { currentPassword: user.password, newPassword: "a brand new secret", confirmPassword: "a brand new secret" };
    // With no second factor on the account, the current password is the whole proof.
    const response = await change(user, user.bearer, body);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Password updated", otherSessionsEnded: 2 });

    expect((await api().get("/api/auth/user").set("Authorization", user.bearer)).status).toBe(200);
    expect((await api().get("/api/auth/user").set("Authorization", other)).status).toBe(401);
    expect((await api().get("/api/auth/user").set("Authorization", third)).status).toBe(401);
    expect((await api().post("/api/auth/login").send({ username: user.username, password: user.password })).status).toBe(401);
    expect((await api().post("/api/auth/login").send({ username: user.username, password: "a brand new secret" })).status).toBe(200);

    const audit = await ctx.db.select().from(auditEvents).where(eq(auditEvents.actorId, user.id));
    expect(audit).toEqual([expect.objectContaining({ action: "account.password_changed", details: { otherSessionsEnded: 2 } })]);
    expect(JSON.stringify(audit)).not.toContain("a brand new secret");
  });

  it("answers 400 'Current password is incorrect' to a wrong current password, and nothing changes", async () => {
    const user = await ctx.signUp();
    const other = await signInAgain(user);
    await reauthenticate(ctx, user);
    const response = await change(user, user.bearer, {
      currentPassword: "wrong password",
      newPassword: "another secret",
      confirmPassword: "another secret",
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "Current password is incorrect" });
    expect((await api().get("/api/auth/user").set("Authorization", other)).status).toBe(200);
    expect((await api().post("/api/auth/login").send({ username: user.username, password: user.password })).status).toBe(200);
  });

  it("answers the password form's messages (400)", async () => {
    const user = await ctx.signUp();
    const empty = await change(user, user.bearer, { currentPassword: "", newPassword: "short", confirmPassword: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual(
      expect.arrayContaining([
        { path: "currentPassword", message: "Current password is required" },
        { path: "newPassword", message: "Password must be at least 6 characters" },
        { path: "confirmPassword", message: "Password confirmation is required" },
      ]),
    );
    const mismatch = await change(user, user.bearer, {
      currentPassword: user.password,
      newPassword: "secret-one",
      confirmPassword: "secret-two",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([{ path: "confirmPassword", message: "Passwords don't match" }]);
    expect((await api().post("/api/auth/login").send({ username: user.username, password: user.password })).status).toBe(200);
  });

  it("is limited like sign-in: after 10 wrong guesses a minute, 429 even with the right password", async () => {
    const user = await ctx.signUp();
    await reauthenticate(ctx, user);
    const wrong = { currentPassword: "guess", newPassword: "whatever-1", confirmPassword: "whatever-1" };
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await change(user, user.bearer, wrong)).status).toBe(400);
    const limited = await change(user, user.bearer, {
      currentPassword: user.password,
      newPassword: "whatever-1",
      confirmPassword: "whatever-1",
    });
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("60");
    // The guesses count for sign-in too: the same account's limit.
    expect((await api().post("/api/auth/login").send({ username: user.username, password: user.password })).status).toBe(429);
    ctx.clock.advance(61_000);
    const later = await change(user, user.bearer, {
      currentPassword: user.password,
      newPassword: "whatever-1",
      confirmPassword: "whatever-1",
    });
    expect(later.status).toBe(200);
  });

  it("is the user's own: another user gets 403, the cookie alone 401, and the password stays", async () => {
    const owner = await ctx.signUp();
    const other = await ctx.signUp();
    const body = { currentPassword: owner.password, newPassword: "hijacked-1", confirmPassword: "hijacked-1" };
    expect((await change(owner, other.bearer, body)).status).toBe(403);
    const cookie = await sessionCookieOf(owner);
    expect((await api().patch(`/api/users/${owner.id}/password`).set("Cookie", cookie).send(body)).status).toBe(401);
    expect((await api().post("/api/auth/login").send({ username: owner.username, password: owner.password })).status).toBe(200);
  });
});
