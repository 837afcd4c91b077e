import { currentUser } from "../../shared/api/auth";
import { EARLY_CURRENT_USER, EARLY_READS } from "../../client/src/lib/auth-token-key";
import { preloadScript } from "./signed-in-preload";

describe("the signed-in preload script", () => {
  // The app takes the script's answer in place of its own request (client/src/lib/auth/get-current-user.ts), so
  // both must ask the same endpoint: the script is written out by the build, outside the client's declared calls.
  it("asks for the current user at the address the endpoint's declaration names", () => {
    expect(preloadScript([], [])).toContain(`fetch(${JSON.stringify(currentUser.path)},`);
  });
});

describe("the signed-in preload script at a page with first reads", () => {
  const reads = ["/api/companies/:companyId/compliance", "/api/companies/:companyId/documents/recent"];
  const script = preloadScript(["assets/signed-in.js"], [{ paths: ["/"], file: "assets/dashboard.js", reads }]);

  /** Runs the script at `pathname` with `token` stored; the current user answers `user`. */
  function run(pathname: string, token: string | null, user: object | null) {
    const win: Record<string, unknown> = {};
    const requested: { url: string; authorization: string | undefined }[] = [];
    const links: string[] = [];
    const fetch = (url: string, init: { headers: Record<string, string> }) => {
      requested.push({ url, authorization: init.headers.Authorization });
      const body = url === "/api/auth/user" ? user : [];
      return Promise.resolve(new Response(JSON.stringify(body), { status: body === null ? 401 : 200 }));
    };
    const document = {
      createElement: () => ({ dataset: {} }),
      head: { appendChild: (link: { href: string }) => links.push(link.href) },
    };
    const localStorage = { getItem: () => token };
    new Function("window", "localStorage", "location", "document", "fetch", script)(win, localStorage, { pathname }, document, fetch);
    return { win, requested, links };
  }

  it("asks for the reads of the user's active company, with the token, once the user's answer names it", async () => {
    const { win, requested, links } = run("/", "tok", { id: 1, companyId: 42 });
    expect(links).toEqual(["/assets/signed-in.js", "/assets/dashboard.js"]);
    const early = win[EARLY_READS] as { token: string; responses: Promise<Record<string, Promise<Response>>> };
    expect(early.token).toBe("tok");
    const responses = await early.responses;
    expect(Object.keys(responses)).toEqual(["/api/companies/42/compliance", "/api/companies/42/documents/recent"]);
    expect(requested).toEqual([
      { url: "/api/auth/user", authorization: "Bearer tok" },
      { url: "/api/companies/42/compliance", authorization: "Bearer tok" },
      { url: "/api/companies/42/documents/recent", authorization: "Bearer tok" },
    ]);
    // The app still reads the user's answer itself.
    const user = await (win[EARLY_CURRENT_USER] as { response: Promise<Response> }).response;
    expect(await user.json()).toEqual({ id: 1, companyId: 42 });
  });

  it("asks for no reads without an active company, when the user's answer is a refusal, or at another page", async () => {
    for (const [pathname, user] of [
      ["/", { id: 1, companyId: null }],
      ["/", null],
      ["/meetings", { id: 1, companyId: 42 }],
    ] as const) {
      const { win, requested } = run(pathname, "tok", user);
      expect(await (win[EARLY_READS] as { responses?: Promise<object> } | undefined)?.responses).toEqual(pathname === "/" ? {} : undefined);
      expect(requested.map((request) => request.url)).toEqual(["/api/auth/user"]);
    }
  });

  it("asks for nothing without a token, nor once the app has asked for the user itself", () => {
    expect(run("/", null, { id: 1, companyId: 42 }).requested).toEqual([]);
    const win: Record<string, unknown> = { [EARLY_CURRENT_USER]: false };
    const fetch = vi.fn();
    new Function("window", "localStorage", "location", "document", "fetch", script)(
      win,
      { getItem: () => "tok" },
      { pathname: "/" },
      { createElement: () => ({ dataset: {} }), head: { appendChild: () => undefined } },
      fetch,
    );
    expect(fetch).not.toHaveBeenCalled();
    expect(win[EARLY_READS]).toBeUndefined();
  });
});
