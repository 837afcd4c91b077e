import { Router, type Request, type RequestHandler, type Response } from "express";
import { z } from "zod";
import type { $ZodType, output as ZodOutput } from "zod/v4/core";
import { pathParamNames, successStatus, type Access, type AnswerOf, type Endpoint } from "../../../shared/api/endpoint";
import { apiErrorBodySchema } from "../../../shared/api-error";
import type { Guards } from "./guards";
import type { AuthContext, TenantContext } from "./request-context";
import { idParam, parseOr400 } from "./validate";

type NoFields = Record<never, never>;

/** Path parameters by name, read off the path: each an id. */
type PathParamNames<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Param}`
    ? Param
    : never;

type Parsed<Schema> = Schema extends $ZodType ? ZodOutput<Schema> : undefined;

/** The caller, when the endpoint's access class needs a session. */
type AuthOf<A extends Access> = A extends { class: "public" } ? { auth?: undefined } : { auth: AuthContext };
/** The company the request acts in, when a membership guard (not the service) established it. */
type TenantOf<A extends Access> = A extends { class: "company" } | { class: "thing"; by?: undefined }
  ? { tenant: TenantContext }
  : NoFields;

/** What a handler receives: its input parsed and typed, the caller, and the request for what only HTTP knows. */
export type Call<E extends Endpoint> = {
  params: Record<PathParamNames<E["path"]>, number>;
  query: Parsed<E["query"]>;
  body: E["streamedBody"] extends readonly unknown[] ? undefined : Parsed<E["body"]>;
  req: Request;
  res: Response;
} & AuthOf<E["access"]> &
  TenantOf<E["access"]>;

/**
 * A handler answers the endpoint's success body; one whose answer is raw writes it to `res` itself. (A raw answer
 * is typed as the fetch API's Response, the client's view of it, not as Express's.)
 */
export type Handler<E extends Endpoint> = (call: Call<E>) => Promise<AnswerOf<E> extends globalThis.Response ? void : AnswerOf<E>>;

/** What a guard needs that the declaration cannot say: how to find the company (or owner) of a thing loaded by id. */
type LoaderOf<A extends Access> = A extends { class: "thing"; by: "service" }
  ? NoFields
  : A extends { class: "thing" }
    ? { companyOf: (req: Request) => Promise<number | null> }
    : A extends { class: "own-user"; by: "owner" }
      ? { ownerOf: (req: Request) => Promise<number | null>; notFoundMessage?: string }
      : NoFields;

/** Runs before the handler, after the guard (a route that reads its own body in pieces). */
type Before = { before?: RequestHandler[] };

/**
 * A write of a thing the service checks (`thing` by `service`) whose statements confirm the caller's session in the
 * database with the change itself: its guard may then name the caller from the session cache (a vote).
 */
type ConfirmsSession<A extends Access> = A extends { class: "thing"; by: "service" } ? { sessionConfirmedByWrite?: true } : NoFields;

export type RouteOptions<E extends Endpoint> = LoaderOf<E["access"]> & Before & ConfirmsSession<E["access"]>;

/** A declaration bound to its handler: what a feature's routes file exports, and the app mounts. */
export interface BoundRoute {
  endpoint: Endpoint;
  handler: Handler<Endpoint>;
  options: { companyOf?: (req: Request) => Promise<number | null>; ownerOf?: (req: Request) => Promise<number | null> } & Before & {
      notFoundMessage?: string;
      sessionConfirmedByWrite?: true;
    };
}

/** Binds an endpoint's declaration to its handler. The guard comes from the declaration's access class. */
export function route<const E extends Endpoint>(
  endpoint: E,
  ...[handler, options]: NoFields extends RouteOptions<E>
    ? [handler: Handler<E>, options?: RouteOptions<E>]
    : [handler: Handler<E>, options: RouteOptions<E>]
): BoundRoute {
  return { endpoint, handler: handler as unknown as Handler<Endpoint>, options: (options ?? {}) as BoundRoute["options"] };
}

/** What mounting needs: the guards, and in tests a check of every answer against its declaration. */
export interface MountDeps {
  guards: Guards;
  /** Tests pass this: each answer that breaks its declared schema is reported here. */
  checkAnswers?: (problem: string) => void;
}

const declarations = new WeakMap<object, Endpoint>();

/** The declaration a mounted handler serves: how the route walker reads the app's routes against the table. */
export function declarationOf(handler: unknown): Endpoint | undefined {
  return typeof handler === "function" ? declarations.get(handler) : undefined;
}

/** The guard chain an access class stands for (each guard fails closed). */
function guardsFor(endpoint: Endpoint, options: BoundRoute["options"], guards: Guards): RequestHandler[] {
  const access = endpoint.access;
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${endpoint.method} ${endpoint.path}: a ${access.class} route needs ${what}`);
    return value;
  };
  switch (access.class) {
    case "public":
      return [];
    case "platform":
      return guards.requirePlatformAdmin;
    case "own-user":
      if (access.by === "session") return [guards.requireAuth];
      if (access.by === "param") return guards.requireOwnResource(access.param);
      return guards.requireOwnThing(need(options.ownerOf, "ownerOf"), options.notFoundMessage);
    case "company":
      return guards.requireCompanyMember({
        permission: access.permission,
        company: access.by === "param" ? { from: "param", param: access.param } : { from: "active" },
      });
    case "thing":
      if ("by" in access && access.by === "service") {
        return options.sessionConfirmedByWrite ? guards.requireAuthConfirmedByWrite : guards.requireAuthThenThingInService;
      }
      return guards.requireCompanyMember({
        permission: access.permission,
        company: { from: "thing", companyOf: need(options.companyOf, "companyOf") },
      });
  }
}

/** Why a JSON answer breaks the declaration, or null when it keeps it. Error answers all share one body. */
export function answerProblem(endpoint: Endpoint, status: number, body: unknown): string | null {
  const where = `${endpoint.method} ${endpoint.path} answered ${status}`;
  if (status >= 400) {
    const result = z.safeParse(apiErrorBodySchema, body);
    return result.success ? null : `${where} with a body that is not the error body: ${result.error.message}`;
  }
  if (!(status in endpoint.responses)) return `${where}, which it does not declare`;
  const spec = endpoint.responses[status];
  if (spec === null || spec === undefined || !("_zod" in spec)) return `${where} with JSON, but declares no JSON for it`;
  const result = z.safeParse(spec, body);
  return result.success ? null : `${where} with a body its schema refuses: ${result.error.message}`;
}

/** Mounts bound routes on a router, each with the guard of its access class and its input parsed. */
export function mountRoutes(routes: readonly BoundRoute[], deps: MountDeps): Router {
  const router = Router();
  for (const { endpoint, handler, options } of routes) {
    const success = successStatus(endpoint);
    const names = pathParamNames(endpoint.path);
    const serve: RequestHandler = async (req, res) => {
      const params: Record<string, number> = {};
      for (const name of names) params[name] = idParam(req.params[name]);
      const call = {
        params,
        query: endpoint.query ? parseOr400(endpoint.query, req.query) : undefined,
        body: endpoint.body && !endpoint.streamedBody ? parseOr400(endpoint.body, req.body) : undefined,
        req,
        res,
        auth: req.auth,
        tenant: req.tenant,
      } as unknown as Call<Endpoint>;
      const answer = await handler(call);
      if (res.headersSent || res.writableEnded) return;
      if (endpoint.responses[success] === null) res.status(success).end();
      else res.status(success).json(answer);
    };
    declarations.set(serve, endpoint);
    const chain: RequestHandler[] = [...guardsFor(endpoint, options, deps.guards), ...(options.before ?? []), serve];
    if (deps.checkAnswers) chain.unshift(answerChecker(endpoint, deps.checkAnswers));
    router[endpoint.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete"](endpoint.path, ...chain);
  }
  return router;
}

/** In tests: every JSON answer of the route, the error handler's included, is held to the declaration. */
function answerChecker(endpoint: Endpoint, report: (problem: string) => void): RequestHandler {
  return (_req, res, next) => {
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      const problem = answerProblem(endpoint, res.statusCode, body);
      if (problem) report(problem);
      return send(body);
    };
    next();
  };
}
