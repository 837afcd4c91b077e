import { HttpResponse } from "msw";
import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as documentsApi from "@shared/api/documents";
import * as resolutionsApi from "@shared/api/resolutions";
import { ApiError, apiRequest, apiUrl, callApi } from "@/lib/api-client";
import { buildUser } from "@/testing/factories";
import { apiError, handle, malformed, nextHandler, takeFakeProblems } from "@/testing/handle";
import { server } from "@/testing/server";

const counts = { yes: 1, no: 0, abstain: 0, total: 1, userVote: "yes" as const };
const download = apiUrl(documentsApi.downloadDocument, { params: { id: 9 }, query: {} });

/** The error a call failed with (msw logs a broken fake as it fails the request: that log is expected here). */
async function failure(call: Promise<unknown>): Promise<unknown> {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  return call.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("handle", () => {
  it("answers the declared path and method with the typed answer, given the path's parameters as numbers and the body", async () => {
    const seen: unknown[] = [];
    server.use(
      handle(resolutionsApi.castVote, ({ params, body }) => {
        seen.push(params, body);
        return counts;
      }),
    );
    await expect(callApi(resolutionsApi.castVote, { params: { id: 4 }, body: { vote: "yes" } })).resolves.toEqual(counts);
    expect(seen).toEqual([{ id: 4 }, { vote: "yes" }]);
  });

  it("fails the request and the test when the fake's answer drifts from the declared schema", async () => {
    // A field renamed in the fake: the schema wants `total`.
    const { total: _total, ...renamed } = counts;
    server.use(handle(resolutionsApi.getVoteCounts, () => ({ ...renamed, count: 1 }) as unknown as typeof counts));
    const error = await failure(callApi(resolutionsApi.getVoteCounts, { params: { id: 4 } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(500);
    const problems = takeFakeProblems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GET \/api\/resolutions\/:id\/votes: the fake's 200 answer breaks the declared schema: .*\n.*at total/);
  });

  it("refuses an error status the endpoint does not declare, and takes one it does", async () => {
    server.use(handle(resolutionsApi.getQuorum, () => apiError(409, "Taken")));
    await failure(callApi(resolutionsApi.getQuorum, { params: { companyId: 1 } }));
    expect(takeFakeProblems()).toEqual(["GET /api/companies/:companyId/quorum answered 409, which it does not declare"]);

    server.use(handle(resolutionsApi.castVote, () => apiError(409, "Decided")));
    const refused = await failure(callApi(resolutionsApi.castVote, { params: { id: 4 }, body: { vote: "no" } }));
    expect(refused).toMatchObject({ status: 409, serverMessage: "Decided" });
    expect(takeFakeProblems()).toEqual([]);
  });

  it("answers the API's error body only", () => {
    expect(() => apiError(404, { message: 7 } as never)).toThrow(/not the API's error body/);
    expect(() => apiError(302, "Moved")).toThrow(/4xx or 5xx/);
  });

  it("fails a request whose body the server's schema would refuse", async () => {
    server.use(handle(resolutionsApi.castVote, () => counts));
    await failure(apiRequest("POST", apiUrl(resolutionsApi.castVote, { params: { id: 4 } }), { choice: "yes" }));
    expect(takeFakeProblems()).toEqual([
      expect.stringMatching(/^POST \/api\/resolutions\/:id\/vote: the client sent a body its schema refuses/),
    ]);
  });

  it("answers only the path parameters it is given, and leaves the others to the next handler", async () => {
    server.use(handle(accountApi.listSessions, () => apiError(403, "Someone else's")));
    server.use(handle(accountApi.listSessions, () => [], { params: { id: 7 } }));
    await expect(callApi(accountApi.listSessions, { params: { id: 7 } })).resolves.toEqual([]);
    await expect(callApi(accountApi.listSessions, { params: { id: 8 } })).rejects.toMatchObject({ status: 403 });
  });

  it("passes an answer on to the next handler when told to", async () => {
    server.use(handle(authApi.currentUser, () => buildUser({ id: 3 })));
    server.use(handle(authApi.currentUser, () => nextHandler()));
    await expect(callApi(authApi.currentUser)).resolves.toMatchObject({ id: 3 });
  });

  it("sends a malformed answer as it is, unchecked", async () => {
    server.use(handle(authApi.checkPlatformAdmin, () => malformed(HttpResponse.json({ admin: "yes" }))));
    await expect(callApi(authApi.checkPlatformAdmin)).resolves.toEqual({ admin: "yes" });
    expect(takeFakeProblems()).toEqual([]);
  });

  it("answers a raw endpoint with a Response of a declared status", async () => {
    server.use(
      handle(documentsApi.downloadDocument, () => new HttpResponse("%PDF-1.7", { headers: { "Content-Type": "application/pdf" } })),
    );
    const response = await apiRequest("GET", download);
    expect(await response.text()).toBe("%PDF-1.7");

    server.use(handle(documentsApi.downloadDocument, () => HttpResponse.json({ message: "Gone" }, { status: 410 })));
    await failure(apiRequest("GET", download));
    expect(takeFakeProblems()).toEqual([
      "GET /api/documents/:id/download answered 410, which it does not declare (an error is an apiError(...))",
    ]);
  });
});
