import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import request from "supertest";
import { preferenceDefaults } from "../../../../shared/preferences";
import { auditEvents, sessions, users } from "../../db/schema";
import { reauthenticate } from "../../testing/second-factor-fixtures";
import { useTestContext, type SignedUp } from "../../testing/test-context";

const ctx = useTestContext();

const api = () => request(ctx.app);
const chromeOnMac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const firefoxOnLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** A second session of the same user, signed in from another browser. */
async function signInAgain(user: SignedUp, userAgent = firefoxOnLinux): Promise<string> {
  const response = await api()
    .post("/api/auth/login")
    .set("User-Agent", userAgent)
    .send({ username: user.username, password: user.password });
  expect(response.status).toBe(200);
  return `Bearer ${response.body.token}`;
}

/** The session cookie a sign-in sets, as a browser would send it back. */
async function sessionCookieOf(user: SignedUp): Promise<string> {
  const response = await api().post("/api/auth/login").send({ username: user.username, password: user.password });
  return String(response.headers["set-cookie"]![0]).split(";")[0]!;
}

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

describe("sessions", () => {
  it("lists the caller's live sessions with their device and last use, this one first and marked current", async () => {
    const user = await ctx.signUp();
    ctx.clock.advance(5 * 60_000);
    const firefox = await signInAgain(user, firefoxOnLinux);
    ctx.clock.advance(5 * 60_000);
    const chrome = await signInAgain(user, chromeOnMac);
    // An expired session of the same user is not listed, though it is still stored.
    await ctx.db.insert(sessions).values({
      tokenHash: "expired-session",
      userId: user.id,
      createdAt: new Date(0),
      lastUsedAt: new Date(0),
      expiresAt: new Date(1000),
    });
    expect(await ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(4);
    // Someone else's sessions are not listed.
    await ctx.signUp();

    let response!: request.Response;
    const queries = await ctx.countQueries(async () => {
      response = await api().get(`/api/users/${user.id}/sessions`).set("Authorization", firefox);
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { id: expect.any(Number), device: "Firefox on Linux", createdAt: expect.any(String), lastUsedAt: expect.any(String), current: true },
      {
        id: expect.any(Number),
        device: "Chrome on macOS",
        createdAt: expect.any(String),
        lastUsedAt: ctx.clock.now().toISOString(),
        current: false,
      },
      { id: expect.any(Number), device: "Unknown device", createdAt: expect.any(String), lastUsedAt: expect.any(String), current: false },
    ]);
    // The session check, the list: the same whatever the number of sessions.
    expect(queries).toBeLessThanOrEqual(3);
    // Each session sees itself first and marked current.
    const fromChrome = await api().get(`/api/users/${user.id}/sessions`).set("Authorization", chrome);
    expect(fromChrome.body.map((session: { device: string; current: boolean }) => [session.device, session.current])).toEqual([
      ["Chrome on macOS", true],
      ["Firefox on Linux", false],
      ["Unknown device", false],
    ]);
  });

  it("signs out every other session and keeps this one", async () => {
    const user = await ctx.signUp();
    const other = await signInAgain(user);
    const response = await api().post(`/api/users/${user.id}/sessions/revoke-others`).set("Authorization", user.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ revoked: 1 });
    expect((await api().get("/api/auth/user").set("Authorization", other)).status).toBe(401);
    const list = await api().get(`/api/users/${user.id}/sessions`).set("Authorization", user.bearer);
    expect(list.body).toEqual([expect.objectContaining({ current: true })]);
  });

  it("is the user's own: another user gets 403 and no session ends; the cookie alone cannot sign others out", async () => {
    const owner = await ctx.signUp();
    const other = await ctx.signUp();
    expect((await api().get(`/api/users/${owner.id}/sessions`).set("Authorization", other.bearer)).status).toBe(403);
    expect((await api().post(`/api/users/${owner.id}/sessions/revoke-others`).set("Authorization", other.bearer)).status).toBe(403);
    const cookie = await sessionCookieOf(owner);
    expect((await api().post(`/api/users/${owner.id}/sessions/revoke-others`).set("Cookie", cookie)).status).toBe(401);
    expect((await api().get("/api/auth/user").set("Authorization", owner.bearer)).status).toBe(200);
  });
});

describe("GET|PUT /api/users/:id/preferences", () => {
  it("answers the defaults before anything is saved", async () => {
    const user = await ctx.signUp();
    const response = await api().get(`/api/users/${user.id}/preferences`).set("Authorization", user.bearer);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      meetingReminders: true,
      documentUpdates: true,
      resolutionVoting: true,
      boardMemberUpdates: false,
      emailDigest: true,
      darkMode: false,
      compactView: false,
      autoSaveDrafts: true,
      showTooltips: true,
    });
    expect(response.body).toEqual(preferenceDefaults);
  });

  it("saves the switches given, keeps the others, and reads them back on another session", async () => {
    const user = await ctx.signUp();
    const first = await api().put(`/api/users/${user.id}/preferences`).set("Authorization", user.bearer).send({ darkMode: true });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ...preferenceDefaults, darkMode: true });
    const second = await api()
      .put(`/api/users/${user.id}/preferences`)
      .set("Authorization", user.bearer)
      .send({ meetingReminders: false, showTooltips: false });
    expect(second.body).toEqual({ ...preferenceDefaults, darkMode: true, meetingReminders: false, showTooltips: false });
    const elsewhere = await signInAgain(user);
    const read = await api().get(`/api/users/${user.id}/preferences`).set("Authorization", elsewhere);
    expect(read.body).toEqual({ ...preferenceDefaults, darkMode: true, meetingReminders: false, showTooltips: false });
  });

  it("refuses unknown switches and values that are not booleans (400)", async () => {
    const user = await ctx.signUp();
    for (const body of [{ darkmode: true }, { darkMode: "yes" }, { darkMode: null }, [true]]) {
      const response = await api().put(`/api/users/${user.id}/preferences`).set("Authorization", user.bearer).send(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api().get(`/api/users/${user.id}/preferences`).set("Authorization", user.bearer)).body).toEqual(preferenceDefaults);
  });

  it("is the user's own: another user gets 403 for reading and writing; the cookie alone cannot write", async () => {
    const owner = await ctx.signUp();
    const other = await ctx.signUp();
    expect((await api().get(`/api/users/${owner.id}/preferences`).set("Authorization", other.bearer)).status).toBe(403);
    expect((await api().put(`/api/users/${owner.id}/preferences`).set("Authorization", other.bearer).send({ darkMode: true })).status).toBe(
      403,
    );
    const cookie = await sessionCookieOf(owner);
    expect((await api().put(`/api/users/${owner.id}/preferences`).set("Cookie", cookie).send({ darkMode: true })).status).toBe(401);
    expect((await api().get(`/api/users/${owner.id}/preferences`).set("Authorization", owner.bearer)).body).toEqual(preferenceDefaults);
  });
});
