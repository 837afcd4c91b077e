import { eq } from "drizzle-orm";
import request from "supertest";
import { preferenceDefaults } from "../../../../shared/preferences";
import { sessions } from "../../db/schema";
import { useTestContext } from "../../testing/test-context";
import { chromeOnMac, firefoxOnLinux, sessionFixtures } from "../../testing/session-fixtures";

const ctx = useTestContext();
const { signInAgain, sessionCookieOf } = sessionFixtures(ctx);

const api = () => request(ctx.app);

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
