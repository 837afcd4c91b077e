import { eq } from "drizzle-orm";
import request from "supertest";
import { users } from "../db/schema";
import { markSessionsProved } from "./second-factor-fixtures";
import { SoftwareAuthenticator } from "./software-authenticator";
import type { SignedUp, TestContext } from "./test-context";

/** Passkeys through the API, registered with a software authenticator for the app at `appUrl`. */
export function passkeyFixtures(ctx: Pick<TestContext, "app" | "db" | "clock" | "noteSecret">, appUrl: string) {
  const api = () => request(ctx.app);

  /** Once the account has a passkey, the password alone no longer proves it, and these tests are about the passkeys. */
  const proveSession = (user: SignedUp) => markSessionsProved(ctx, user.id);

  /** Starts a registration from a freshly proved session, as the client does once the user confirmed it's them. */
  async function registerOptions(user: SignedUp) {
    await proveSession(user);
    const answer = await api().post("/api/auth/passkeys/register-options").set("Authorization", user.bearer);
    expect(answer.status).toBe(200);
    return answer.body as { challenge: string; options: Record<string, unknown> };
  }

  /** Registers a passkey of a new software authenticator for the user; answers the authenticator and the passkey. */
  async function withPasskey(user: SignedUp, name = "Laptop", authenticator = new SoftwareAuthenticator({ origin: appUrl })) {
    const { options } = await registerOptions(user);
    const registered = await api()
      .post("/api/auth/passkeys")
      .set("Authorization", user.bearer)
      .send({ name, response: authenticator.register(options) });
    expect(registered.status).toBe(201);
    return { authenticator, passkey: registered.body as { id: number; name: string } };
  }

  async function loginOptions(body: Record<string, unknown> = {}) {
    const answer = await api().post("/api/auth/passkeys/login-options").send(body);
    expect(answer.status).toBe(200);
    return answer.body as { challenge: string; options: Record<string, unknown> };
  }

  const secondFactorOf = async (userId: number) =>
    (await ctx.db.select({ flag: users.secondFactor }).from(users).where(eq(users.id, userId)))[0]?.flag;

  return { proveSession, registerOptions, withPasskey, loginOptions, secondFactorOf };
}
