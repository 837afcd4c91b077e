import type { Express } from "express";
import type { Access, Endpoint } from "../../../shared/api/endpoint";
import { declarationOf } from "../http/endpoints";

/**
 * Walks an Express 5 app's own router stack (router 2.x) and lists every route with its method, full path
 * and class. A mounted router is a layer whose `handle` has a `stack`; the path it is mounted at is the
 * layer's `rawPath`, and a route's handlers are its `route.stack`, each with its `method`. A route's class is
 * the access class of the declaration it was mounted from (shared/api/), whose guard chain `mountRoutes` built
 * from it; a route mounted any other way is a problem, guarded or not.
 */
export interface ApiRoute {
  /** Upper case: GET, POST, PUT, PATCH, DELETE. */
  method: string;
  /** The full path as registered, e.g. "/api/documents/:id". */
  path: string;
  /** The declaration's access class; null for a route not mounted from a declaration. */
  class: Access["class"] | null;
  /** The declaration the route was mounted from (shared/api/). */
  endpoint?: Endpoint;
  /** Why the route breaks the rules; empty when it is sound. */
  problems: string[];
}

/** The routes anyone may call without a session. Anything else must be guarded. */
export const publicRoutes: readonly string[] = [
  "GET /api/health",
  "POST /api/auth/register",
  "POST /api/auth/login",
  // The second step of a sign-in: the challenge the right password was answered with is the authority.
  "POST /api/auth/login/second-factor",
  // A sign-in with a passkey: the options name a fresh challenge, and only a signed answer to one signs in.
  "POST /api/auth/passkeys/login-options",
  "POST /api/auth/passkeys/login",
  // A link mailed to an address is followed with no session: its single-use token is the authority. Asking for a
  // reset names only an address, and answers the same whatever it is.
  "POST /api/auth/verify-email",
  "POST /api/auth/password-reset",
  "POST /api/auth/password-reset/confirm",
  // An e-mail's unsubscribe links are opened from a mail program with no session; the signed token is the
  // authority. The GETs only lead to the page and read; the POST (the page's button, or a mail program's
  // one-click unsubscribe) turns the switch off.
  "GET /api/unsubscribe",
  "GET /api/unsubscribe/preview",
  "POST /api/unsubscribe",
  // An invitation's link shows what it offers before anyone signs in; the token is the authority.
  "POST /api/invitations/preview",
  // A calendar app subscribes without a session; the secret key in the query string is the authority.
  "GET /api/calendar-feed.ics",
  // The API's own description: the OpenAPI document and its reference page, generated from the declarations.
  "GET /api/openapi.json",
  "GET /api/docs",
];

export const routeKey = (route: Pick<ApiRoute, "method" | "path">) => `${route.method} ${route.path}`;

/** The parts of router 2.x's Layer and Route the walker reads (@types/express does not know `rawPath`). */
interface RouterLayer {
  rawPath?: unknown;
  handle: { name?: string; stack?: unknown };
  route?: { stack: { method?: string; handle: unknown }[] };
}

interface FoundRoute {
  method: string;
  path: string;
  handlers: unknown[];
}

function joinPath(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/{2,}/g, "/");
  return joined.length > 1 ? joined.replace(/\/$/, "") : joined;
}

function findRoutes(stack: RouterLayer[], prefix: string, found: FoundRoute[], unreadable: string[]): void {
  for (const layer of stack) {
    const paths = typeof layer.rawPath === "string" ? [layer.rawPath] : Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath];
    if (layer.route) {
      const methods = [...new Set(layer.route.stack.map((handler) => handler.method ?? "all"))];
      for (const raw of paths) {
        if (typeof raw !== "string") {
          unreadable.push(`a route under ${prefix || "/"} has a path the walker cannot read (${String(raw)})`);
          continue;
        }
        for (const method of methods) {
          // .all() handlers run for every method, in their place in the chain.
          const handlers = layer.route.stack
            .filter((handler) => handler.method === method || handler.method === undefined)
            .map((handler) => handler.handle);
          found.push({ method: method.toUpperCase(), path: joinPath(prefix, raw), handlers });
        }
      }
    } else if (Array.isArray(layer.handle.stack)) {
      for (const raw of paths) {
        if (typeof raw !== "string") {
          unreadable.push(`a router under ${prefix || "/"} is mounted at a path the walker cannot read (${String(raw)})`);
          continue;
        }
        findRoutes(layer.handle.stack as RouterLayer[], joinPath(prefix, raw), found, unreadable);
      }
    } else if (layer.handle.name === "mounted_app") {
      unreadable.push(
        `an Express app mounted under ${joinPath(prefix, String(paths[0]))} hides its routes from the walker: mount a Router instead`,
      );
    }
  }
}

/** The parameters a path names: `:id`, and Express 5 wildcards such as `*rest`. */
const pathParams = (path: string) => [...path.matchAll(/[:*](\w+)/g)].map((match) => match[1]!);

/** The route's class, from its declaration, and what is wrong with it. */
function classify(route: FoundRoute, publicKeys: ReadonlySet<string>): ApiRoute {
  const endpoint = route.handlers.map(declarationOf).find((found) => found !== undefined);
  const isPublic = publicKeys.has(routeKey(route));
  if (!endpoint) {
    return { method: route.method, path: route.path, class: null, problems: ["is not mounted from a declaration (shared/api/)"] };
  }
  const problems: string[] = [];
  if (endpoint.method !== route.method || endpoint.path !== route.path) {
    problems.push(`is mounted from the declaration of ${endpoint.method} ${endpoint.path}`);
  }
  const { access } = endpoint;
  if (access.class === "public" && !isPublic) problems.push("is declared public but is not on the public list");
  if (access.class !== "public" && isPublic) problems.push(`is on the public list but declared ${access.class}`);

  const params = pathParams(route.path);
  // Whatever the path names must be checked by the guard: a session alone checks nothing the path says.
  const sessionOnly = access.class === "own-user" && access.by === "session";
  if ((access.class === "public" || sessionOnly) && params.length > 0) {
    problems.push(
      `names ${params.map((param) => `:${param}`).join(", ")} in its path, which ${sessionOnly ? "a session alone" : "nothing"} checks`,
    );
  }
  const companyParam = route.path.match(/\/companies\/:(\w+)/)?.[1];
  if (companyParam && !(access.class === "company" && access.by === "param" && access.param === companyParam)) {
    problems.push(`names a company (:${companyParam}) but is not guarded by membership of that company`);
  }
  if ("param" in access && !params.includes(access.param)) problems.push(`is guarded on :${access.param}, which its path does not have`);

  return { method: route.method, path: route.path, class: access.class, endpoint, problems };
}

/** Every /api route of the app, classified. */
export function apiRoutes(app: Express, publicList: readonly string[] = publicRoutes): { routes: ApiRoute[]; problems: string[] } {
  const found: FoundRoute[] = [];
  const unreadable: string[] = [];
  findRoutes(app.router.stack as unknown as RouterLayer[], "", found, unreadable);
  const publicKeys = new Set(publicList);
  const routes = found
    .filter((route) => route.path === "/api" || route.path.startsWith("/api/"))
    .map((route) => classify(route, publicKeys));
  const keys = new Set(routes.map(routeKey));
  const problems = [
    ...unreadable,
    ...routes.flatMap((route) => route.problems.map((problem) => `${routeKey(route)} ${problem}`)),
    ...publicList.filter((key) => !keys.has(key)).map((key) => `the public list names ${key}, which is no route`),
  ];
  return { routes, problems };
}
