import { eq } from "drizzle-orm";
import request from "supertest";
import { userPreferences, users } from "../../db/schema";
import { useTestContext } from "../../testing/test-context";
import { signUnsubscribeToken } from "./unsubscribe-token";

/**
 * The unsubscribe links of e-mails, without a session: a GET (what mail scanners and link previews do) never
 * turns anything off; a POST with the signed token does.
 */
const ctx = useTestContext();

const api = () => request(ctx.app);
const invalid = { message: "This unsubscribe link is not valid" };

async function switchesOf(userId: number) {
  const [row] = await ctx.db.select({ settings: userPreferences.settings }).from(userPreferences).where(eq(userPreferences.userId, userId));
  return row?.settings ?? null;
}

async function someone() {
  const user = await ctx.signUp();
  return { user, token: signUnsubscribeToken(user.id, "resolutionVoting", ctx.deps.appSecret) };
}

const forge = (token: string) => `${token.slice(0, -3)}abc`;

describe("GET /api/unsubscribe", () => {
  it("sends the visitor on to the app's unsubscribe page with the token, and turns nothing off", async () => {
    const { user, token } = await someone();
    for (let opened = 0; opened < 3; opened += 1) {
      const response = await api().get(`/api/unsubscribe?token=${token}`);
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe(`/unsubscribe?token=${token}`);
    }
    expect(await switchesOf(user.id)).toBeNull();
  });

  it("leads to the page even without a token, or with a forged one (the page says it is not valid)", async () => {
    expect((await api().get("/api/unsubscribe")).headers.location).toBe("/unsubscribe");
    const { token } = await someone();
    expect((await api().get(`/api/unsubscribe?token=${forge(token)}`)).headers.location).toBe(`/unsubscribe?token=${forge(token)}`);
  });
});

describe("GET /api/unsubscribe/preview", () => {
  it("names the switch the link turns off, and turns nothing off", async () => {
    const { user, token } = await someone();
    const response = await api().get(`/api/unsubscribe/preview?token=${token}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ key: "resolutionVoting", label: "Resolution Voting" });
    expect(await switchesOf(user.id)).toBeNull();
  });

  it("answers 400 for a forged, missing or another secret's token", async () => {
    const { user, token } = await someone();
    for (const query of [`?token=${forge(token)}`, "", `?token=${signUnsubscribeToken(user.id, "resolutionVoting", "another secret")}`]) {
      const response = await api().get(`/api/unsubscribe/preview${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalid);
    }
  });

  it("answers 400 for the token of an account that no longer exists", async () => {
    const { user, token } = await someone();
    await ctx.db.delete(users).where(eq(users.id, user.id));
    const response = await api().get(`/api/unsubscribe/preview?token=${token}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(invalid);
  });
});

describe("POST /api/unsubscribe", () => {
  it("{token} turns the switch off for the token's user, keeps their other switches, and answers which one", async () => {
    const { user, token } = await someone();
    await api()
      .put(`/api/users/${user.id}/preferences`)
      .set("Authorization", user.bearer)
      .send({ documentUpdates: false, darkMode: true })
      .expect(200);
    const response = await api().post("/api/unsubscribe").send({ token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ key: "resolutionVoting", label: "Resolution Voting" });
    expect(await switchesOf(user.id)).toEqual({ documentUpdates: false, darkMode: true, resolutionVoting: false });
    const seen = await api().get(`/api/users/${user.id}/preferences`).set("Authorization", user.bearer);
    expect(seen.body).toMatchObject({ resolutionVoting: false, documentUpdates: false, darkMode: true, meetingReminders: true });
    // Pressing the button again is harmless.
    expect((await api().post("/api/unsubscribe").send({ token })).status).toBe(200);
  });

  it("refuses a forged token, a missing one, an over-long one and unknown fields with 400, changing nothing", async () => {
    const { user, token } = await someone();
    const cases: [unknown, unknown][] = [
      [{ token: forge(token) }, invalid],
      [{}, { message: "Token is required", errors: [{ path: "token", message: "Token is required" }] }],
      [
        { token: "x".repeat(301) },
        { message: "This unsubscribe link is not valid", errors: [{ path: "token", message: "This unsubscribe link is not valid" }] },
      ],
      [{ token: "\u0000" }, expect.objectContaining({ errors: [expect.objectContaining({ path: "token" })] })],
      [{ token, userId: 1 }, expect.objectContaining({ errors: [expect.objectContaining({ path: "" })] })],
      [{ token: 42 }, expect.objectContaining({ errors: [expect.objectContaining({ path: "token" })] })],
    ];
    for (const [body, answer] of cases) {
      const response = await api()
        .post("/api/unsubscribe")
        .send(body as object);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(answer);
    }
    expect(await switchesOf(user.id)).toBeNull();
  });

  it("one-click (RFC 8058): the form-encoded List-Unsubscribe=One-Click posted to the header's address, token in the query", async () => {
    const { user, token } = await someone();
    const response = await api().post(`/api/unsubscribe?token=${token}`).type("form").send("List-Unsubscribe=One-Click");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ key: "resolutionVoting", label: "Resolution Voting" });
    expect(await switchesOf(user.id)).toEqual({ resolutionVoting: false });
  });

  it("one-click refuses another form body, a missing token and a forged one", async () => {
    const { user, token } = await someone();
    const wrongBody = await api().post(`/api/unsubscribe?token=${token}`).type("form").send("List-Unsubscribe=Later");
    expect(wrongBody.status).toBe(400);
    expect(wrongBody.body).toEqual({
      message: "List-Unsubscribe must be One-Click",
      errors: [{ path: "List-Unsubscribe", message: "List-Unsubscribe must be One-Click" }],
    });
    const noToken = await api().post("/api/unsubscribe").type("form").send("List-Unsubscribe=One-Click");
    expect(noToken.status).toBe(400);
    expect(noToken.body).toEqual(invalid);
    const forged = await api()
      .post(`/api/unsubscribe?token=${forge(token)}`)
      .type("form")
      .send("List-Unsubscribe=One-Click");
    expect(forged.status).toBe(400);
    expect(await switchesOf(user.id)).toBeNull();
  });
});
