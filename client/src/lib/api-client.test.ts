import { http, HttpResponse } from "msw";
import * as secondFactorApi from "@shared/api/second-factor";
import { ApiError, apiJson, apiRequest, callApi, setFreshProofPrompt } from "@/lib/api-client";
import { setAuthToken } from "@/lib/auth-token";
import { AUTH_TOKEN_KEY } from "@/lib/auth-token-key";
import { server } from "@/testing/server";

/** Records the requests the handler sees. */
function captureRequests(method: "get" | "post", path: string, respond: () => Response = () => HttpResponse.json({ ok: true })) {
  const requests: Request[] = [];
  server.use(
    http[method](path, ({ request }) => {
      requests.push(request.clone());
      return respond();
    }),
  );
  return requests;
}

describe("apiRequest", () => {
  it("sends the stored token as a bearer header", async () => {
    setAuthToken("abc123");
    const requests = captureRequests("get", "/api/things");
    await apiRequest("GET", "/api/things");
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer abc123");
    expect(window.localStorage.getItem(AUTH_TOKEN_KEY)).toBe("abc123");
  });

  it("sends no authorization header without a token", async () => {
    const requests = captureRequests("get", "/api/things");
    await apiRequest("GET", "/api/things");
    expect(requests[0]!.headers.has("authorization")).toBe(false);
  });

  it("adds a JSON content-type only when there is a body", async () => {
    const requests = captureRequests("post", "/api/things");
    await apiRequest("POST", "/api/things", { name: "Budget" });
    await apiRequest("POST", "/api/things");
    expect(requests[0]!.headers.get("content-type")).toBe("application/json");
    expect(await requests[0]!.json()).toEqual({ name: "Budget" });
    expect(requests[1]!.headers.has("content-type")).toBe(false);
    expect(await requests[1]!.text()).toBe("");
  });

  it("includes cookies", async () => {
    const requests = captureRequests("get", "/api/things");
    await apiRequest("GET", "/api/things");
    expect(requests[0]!.credentials).toBe("include");
  });

  it("throws `${status}: ${body}` for a non-2xx answer and keeps the status and parsed body", async () => {
    server.use(http.post("/api/things", () => HttpResponse.json({ message: "Username already exists" }, { status: 409 })));
    const error = await apiRequest("POST", "/api/things", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.message).toBe('409: {"message":"Username already exists"}');
    expect(apiError.status).toBe(409);
    expect(apiError.body).toEqual({ message: "Username already exists" });
    expect(apiError.serverMessage).toBe("Username already exists");
  });

  it("keeps the error body's code, and none when the body has none", async () => {
    server.use(
      http.get("/api/things", () =>
        HttpResponse.json({ message: "Set up a second factor", code: "second_factor_required" }, { status: 403 }),
      ),
      http.get("/api/others", () => HttpResponse.json({ message: "Not allowed" }, { status: 403 })),
    );
    const refused = (await apiRequest("GET", "/api/things").catch((e: unknown) => e)) as ApiError;
    expect(refused.code).toBe("second_factor_required");
    const other = (await apiRequest("GET", "/api/others").catch((e: unknown) => e)) as ApiError;
    expect(other.code).toBeUndefined();
  });

  it("uses the status text when the error body is empty", async () => {
    server.use(http.get("/api/things", () => new HttpResponse(null, { status: 503, statusText: "Service Unavailable" })));
    await expect(apiRequest("GET", "/api/things")).rejects.toThrow(/^503: Service Unavailable$/);
  });
});

describe("apiJson", () => {
  it("parses JSON and reads an empty 204 as undefined", async () => {
    server.use(
      http.get("/api/things", () => HttpResponse.json([{ id: 1 }])),
      http.delete("/api/things/1", () => new HttpResponse(null, { status: 204 })),
    );
    await expect(apiJson("GET", "/api/things")).resolves.toEqual([{ id: 1 }]);
    await expect(apiJson("DELETE", "/api/things/1")).resolves.toBeUndefined();
  });
});

describe("callApi and a fresh proof", () => {
  const refusal = () => HttpResponse.json({ message: "Confirm it's you", code: "reauth_required" }, { status: 401 });
  afterEach(() => setFreshProofPrompt(undefined));

  it("asks for the proof on a 401 reauth_required and makes the call again once", async () => {
    let answers = 0;
    const requests = captureRequests("post", "/api/auth/totp/setup", () =>
      answers++ === 0 ? refusal() : HttpResponse.json({ secret: "S" }),
    );
    const prompt = vi.fn(async () => undefined);
    setFreshProofPrompt(prompt);
    await expect(callApi(secondFactorApi.setupTotp)).resolves.toEqual({ secret: "S" });
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
  });

  it("a second refusal is the caller's: no second prompt, no third call", async () => {
    const requests = captureRequests("post", "/api/auth/totp/setup", refusal);
    const prompt = vi.fn(async () => undefined);
    setFreshProofPrompt(prompt);
    await expect(callApi(secondFactorApi.setupTotp)).rejects.toMatchObject({ status: 401, code: "reauth_required" });
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
  });

  it("cancelled, fails with the server's refusal; any other 401 is never a prompt", async () => {
    const requests = captureRequests("post", "/api/auth/totp/setup", refusal);
    setFreshProofPrompt(() => Promise.reject(new Error("cancelled")));
    await expect(callApi(secondFactorApi.setupTotp)).rejects.toMatchObject({ status: 401, code: "reauth_required" });
    expect(requests).toHaveLength(1);

    const prompt = vi.fn(async () => undefined);
    setFreshProofPrompt(prompt);
    server.use(http.post("/api/auth/totp/setup", () => HttpResponse.json({ message: "Not authenticated" }, { status: 401 })));
    await expect(callApi(secondFactorApi.setupTotp)).rejects.toBeInstanceOf(ApiError);
    expect(prompt).not.toHaveBeenCalled();
  });
});
