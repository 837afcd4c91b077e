import request from "supertest";
import type { SignedUp, TestContext } from "./test-context";

export const tinyPng =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** A company's profile as the form sends it, with `fields` over it. */
export const companyProfile = (fields: Record<string, unknown> = {}) => ({
  name: "Northwind Traders",
  industry: "technology",
  location: "Lisbon, Portugal",
  stage: "series-a",
  description: "Wholesale of fine foods",
  logoUrl: tinyPng,
  website: "https://northwind.example.com",
  employeeCount: "11-50",
  ...fields,
});

/** Creates a company through the API as `user` would, from the profile with `fields` over it. */
export function companyCreator(ctx: Pick<TestContext, "app">) {
  return async function createVia(user: SignedUp, fields: Record<string, unknown> = {}) {
    const response = await request(ctx.app).post("/api/companies").set("Authorization", user.bearer).send(companyProfile(fields));
    expect(response.status).toBe(201);
    return response.body as { id: number; name: string };
  };
}
