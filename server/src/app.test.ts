import request from "supertest";
import { createTestContext, useTestContext } from "./testing/test-context";

const ctx = useTestContext();

describe("the API's error body", () => {
  it("answers malformed JSON with 400 JSON", async () => {
    const response = await request(ctx.app).post("/api/auth/login").set("Content-Type", "application/json").send('{"username": "a",');
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toMatch(/application\/json/);
    expect(response.body).toEqual({ message: "Malformed JSON in request body" });
  });

  it("answers an unknown /api route with 404 JSON", async () => {
    for (const [method, path] of [
      ["get", "/api/nothing-here"],
      ["post", "/api/auth/nothing"],
      ["delete", "/api/auth/user"],
    ] as const) {
      const response = await request(ctx.app)[method](path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: expect.stringContaining("No API route") });
    }
  });

  it("answers an oversized body with 413 JSON", async () => {
    const response = await request(ctx.app)
      .post("/api/auth/login")
      .send({ username: "a", password: "x".repeat(5 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: "Request body is too large" });
  });

  it("answers a body that is not an object with 400 and the schema's messages", async () => {
    const response = await request(ctx.app).post("/api/auth/login").send([1, 2]);
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual(expect.any(String));
  });
});

describe("large bodies", () => {
  it("refuses an anonymous document upload before reading its body", async () => {
    // Malformed JSON would be a 400 if the body were parsed first.
    const response = await request(ctx.app).post("/api/documents").set("Content-Type", "application/json").send('{"name": ');
    expect(response.status).toBe(401);
  });
});

describe("behind a proxy (TRUST_PROXY)", () => {
  it("marks the cookie Secure when the proxy says https, and only when told to trust it", async () => {
    const body = (name: string) => ({ username: name, email: `${name}@example.com`, password: "secret12" });
    const untrusted = await request(ctx.app).post("/api/auth/register").set("X-Forwarded-Proto", "https").send(body("direct1"));
    expect(String(untrusted.headers["set-cookie"])).not.toMatch(/Secure/);

    const proxied = await createTestContext({ trustProxy: 1 });
    try {
      const trusted = await request(proxied.app).post("/api/auth/register").set("X-Forwarded-Proto", "https").send(body("proxied1"));
      expect(String(trusted.headers["set-cookie"])).toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });
});

describe("plumbing", () => {
  it("gives every response a request id and security headers", async () => {
    const response = await request(ctx.app).get("/api/health");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
    expect(response.headers["x-request-id"]).toMatch(/^[\w-]+$/);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.headers["x-powered-by"]).toBeUndefined();
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("writes one JSON log line per request without tokens", async () => {
    const user = await ctx.signUp();
    await request(ctx.app).get("/api/auth/user?secret=1").set("Authorization", user.bearer);
    const lines = ctx.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.some((line) => line.path === "/api/auth/user" && line.status === 200)).toBe(true);
    const all = ctx.logs.join("\n");
    expect(all).not.toContain(user.token);
    expect(all).not.toContain(user.password);
    expect(all).not.toContain("secret=1");
  });
});
