import request from "supertest";
import type { SignedUp, TestContext } from "./test-context";

export const chromeOnMac =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
export const firefoxOnLinux = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/** More sessions of a user signed up already: another browser's bearer, or the cookie a browser would send back. */
export function sessionFixtures(ctx: Pick<TestContext, "app">) {
  const api = () => request(ctx.app);

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

  return { signInAgain, sessionCookieOf };
}
