import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import request from "supertest";
import { platformServices } from "../db/schema";
import { createCompany } from "./factories";
import { withSecondFactorSession } from "./second-factor-fixtures";
import { useTestContext, type SignedUp, type TestContext } from "./test-context";

/** The requests the platform settings tests make; `adminBearer` is read at each call, once the file's beforeAll signed the admin up. */
export function platformFixtures(ctx: Pick<TestContext, "app" | "db">, adminBearer: () => string) {
  const api = () => request(ctx.app);
  const asAdmin = {
    list: () => api().get("/api/platform/settings").set("Authorization", adminBearer()),
    create: (body: unknown) =>
      api()
        .post("/api/platform/settings")
        .set("Authorization", adminBearer())
        .send(body as object),
    update: (id: number | string, body: unknown) =>
      api()
        .put(`/api/platform/settings/${id}`)
        .set("Authorization", adminBearer())
        .send(body as object),
    remove: (id: number | string) => api().delete(`/api/platform/settings/${id}`).set("Authorization", adminBearer()),
  };

  let nameCounter = 0;
  const uniqueServiceName = (prefix = "Service") => `${prefix} ${++nameCounter}${randomBytes(2).toString("hex")}`;
  const freshKey = () => `sk-live-${randomBytes(24).toString("hex")}`;

  async function storedRow(id: number) {
    const [row] = await ctx.db.select().from(platformServices).where(eq(platformServices.id, id));
    if (!row) throw new Error(`no row ${id}`);
    return row;
  }

  return { api, asAdmin, uniqueServiceName, freshKey, storedRow };
}

/**
 * A file's context with its platform admin and a plain account (signed up in its beforeAll, so read `accounts` inside
 * the tests), and the platform requests made as that admin.
 */
export function usePlatformContext() {
  const ctx = useTestContext();
  const accounts = {} as { admin: SignedUp; plain: SignedUp };
  beforeAll(async () => {
    // The first account is the platform admin; changing service keys needs a session that passed a second factor.
    accounts.admin = await withSecondFactorSession(ctx, await ctx.signUp({ username: "platformboss" }));
    accounts.plain = await ctx.signUp();
    // A founder of a company is still no platform admin.
    await createCompany(ctx.db, { founderId: accounts.plain.id });
  });
  return { ctx, accounts, ...platformFixtures(ctx, () => accounts.admin.bearer) };
}
