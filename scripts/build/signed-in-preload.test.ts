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

describe("the signed-in preload script's table", () => {
  it("fails the build when a read names a parameter its page's path does not", () => {
    expect(() =>
      preloadScript([], [{ paths: ["/meetings/:id"], files: [], reads: [{ address: "/api/meetings/:meetingId/agenda" }] }]),
    ).toThrow(":meetingId");
  });
});

describe("the signed-in preload script at a page with first reads", () => {
  const reads = [{ address: "/api/companies/:companyId/compliance" }, { address: "/api/companies/:companyId/documents/recent" }];
  const script = preloadScript(
    ["assets/signed-in.js"],
    [
      { paths: ["/"], files: ["assets/dashboard.js"], reads },
      {
        paths: ["/meetings/:id"],
        files: ["assets/meeting-detail.js", "assets/dialog.js"],
        reads: [{ address: "/api/documents/:id" }, { address: "/api/companies/:companyId/settings", roles: ["founder", "admin"] }],
      },
      { paths: ["/search"], files: ["assets/search.js", "assets/dialog.js"] },
    ],
  );

  /** Runs the script at `pathname` with `token` stored; the current user answers `user`. */
  function run(pathname: string, token: string | null, user: object | null) {
    const win: Record<string, unknown> = {};
    const requested: { url: string; authorization: string | undefined }[] = [];
    const links: string[] = [];
    // Requests and links, in the order the script makes them.
    const order: string[] = [];
    const fetch = (url: string, init: { headers: Record<string, string> }) => {
      requested.push({ url, authorization: init.headers.Authorization });
      order.push(url);
      const body = url === "/api/auth/user" ? user : [];
      return Promise.resolve(new Response(JSON.stringify(body), { status: body === null ? 401 : 200 }));
    };
    const document = {
      createElement: () => ({ dataset: {} }),
      head: { appendChild: (link: { href: string }) => order.push(link.href) && links.push(link.href) },
    };
    const localStorage = { getItem: () => token };
    new Function("window", "localStorage", "location", "document", "fetch", script)(win, localStorage, { pathname }, document, fetch);
    return { win, requested, links, order };
  }

  it("asks for the current user before it adds the links: over HTTP/1.1 the request would wait behind the files", () => {
    expect(run("/meetings/12", "tok", null).order).toEqual([
      "/api/auth/user",
      "/assets/signed-in.js",
      "/assets/meeting-detail.js",
      "/assets/dialog.js",
    ]);
  });

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

  it("at a page with parameters, asks for its reads with the address's own and preloads the page's files", async () => {
    const { win, requested, links } = run("/meetings/12", "tok", { id: 1, companyId: 42, role: "member" });
    expect(links).toEqual(["/assets/signed-in.js", "/assets/meeting-detail.js", "/assets/dialog.js"]);
    const responses = await (win[EARLY_READS] as { responses: Promise<Record<string, Promise<Response>>> }).responses;
    // A member is not one of the roles that read the company's settings there.
    expect(Object.keys(responses)).toEqual(["/api/documents/12"]);
    expect(requested.map((request) => request.url)).toEqual(["/api/auth/user", "/api/documents/12"]);
  });

  it("asks for the reads only the user's role makes when it holds it", async () => {
    const { win } = run("/meetings/12", "tok", { id: 1, companyId: 42, role: "admin" });
    const responses = await (win[EARLY_READS] as { responses: Promise<Record<string, Promise<Response>>> }).responses;
    expect(Object.keys(responses)).toEqual(["/api/documents/12", "/api/companies/42/settings"]);
  });

  it("preloads a page without first reads and leaves no reads to take there", () => {
    const { win, links } = run("/search", "tok", { id: 1, companyId: 42 });
    expect(links).toEqual(["/assets/signed-in.js", "/assets/search.js", "/assets/dialog.js"]);
    expect(win[EARLY_READS]).toBeUndefined();
  });

  it("asks for no reads without an active company, when the user's answer is a refusal, or at another page", async () => {
    for (const [pathname, user] of [
      ["/", { id: 1, companyId: null }],
      ["/", null],
      ["/meetings", { id: 1, companyId: 42 }],
      // The page's own parameter is an id: anything else is no meeting's address.
      ["/meetings/new", { id: 1, companyId: 42 }],
      ["/meetings/12/pack", { id: 1, companyId: 42 }],
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
