import { http, HttpResponse, type HttpHandler } from "msw";
import { z } from "zod";
import type { $ZodType, input as ZodInput, output as ZodOutput } from "zod/v4/core";
import { apiErrorBodySchema, type ApiErrorBody } from "@shared/api-error";
import { pathParamNames, successStatus, type AnswerSpec, type Endpoint, type PathParamNames, type RawAnswer } from "@shared/api/endpoint";
import { apiTable } from "@shared/api/table";

/*
 * The fake server of the client tests answers each endpoint through its declaration (shared/api/<feature>.ts):
 * the address comes from the declaration, the resolver's input and answer are typed by it, and every answer is
 * checked against it as it is sent. A renamed route, a changed body or a changed answer fails the client tests
 * instead of passing against a fake that still says what the server no longer does.
 */

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessSpec<E extends Endpoint> = E["responses"][Extract<keyof E["responses"], SuccessStatus>];

/**
 * What a resolver answers on success: the JSON of its schema (as `callApi` types it), nothing for a 204, a Response
 * for a raw answer (a file, a calendar; or a declared 304).
 */
type SuccessAnswer<Spec> = Spec extends null ? void : Spec extends $ZodType ? ZodOutput<Spec> : Spec extends RawAnswer ? Response : never;

/** The JSON a schema accepts; its parsed type when it is declared by that alone (`z.ZodType<T>` accepts unknown). */
type SentJson<Schema extends $ZodType> = unknown extends ZodInput<Schema> ? ZodOutput<Schema> : ZodInput<Schema>;

/** The path's parameters, as the numbers the server reads them as (every one is an id). */
export type FakeParams<E extends Endpoint> = Record<PathParamNames<E["path"]>, number>;

/** What the resolver is given: the request's path parameters, its parsed query and the JSON body it carried. */
export interface FakeRequest<E extends Endpoint> {
  params: FakeParams<E>;
  /** The query string as the server's schema reads it. */
  query: E["query"] extends $ZodType ? ZodOutput<E["query"]> : undefined;
  /**
   * The JSON body exactly as the client sent it, checked against the declared body schema first. An endpoint that
   * also takes other bodies (a file upload) has it only when the request is JSON: read the others off `request`.
   */
  body: E["body"] extends $ZodType
    ? E["streamedBody"] extends readonly RawAnswer[]
      ? SentJson<E["body"]> | undefined
      : SentJson<E["body"]>
    : undefined;
  request: Request;
}

type OtherKind = "error" | "network" | "malformed" | "next";

/**
 * An answer other than the declared success: an error, a network failure, a deliberately malformed one, or none
 * (the next handler answers).
 */
export class OtherAnswer {
  readonly #kind: OtherKind;
  readonly #respond: () => Response | undefined;

  constructor(kind: OtherKind, respond: () => Response | undefined) {
    this.#kind = kind;
    this.#respond = respond;
  }

  get kind() {
    return this.#kind;
  }

  response(): Response | undefined {
    return this.#respond();
  }
}

export type FakeAnswer<E extends Endpoint> = SuccessAnswer<SuccessSpec<E>> | OtherAnswer;

export type FakeResolver<E extends Endpoint> = (request: FakeRequest<E>) => FakeAnswer<E> | Promise<FakeAnswer<E>>;

export interface HandleOptions<E extends Endpoint> {
  /** Answer only requests with these path parameters; others go on to the next handler. */
  params?: Partial<FakeParams<E>>;
}

/** Statuses every endpoint may answer, whatever it declares (bad input, authentication, access, rate, failure). */
const commonErrorStatuses = [400, 401, 403, 404, 429, 500];

/**
 * An error answer as the API sends it: `status` (one every endpoint may send, or one the endpoint declares; `handle`
 * checks which) with the API's error body. A message alone makes the body `{ message }`.
 */
export function apiError(status: number, body: string | ApiErrorBody): OtherAnswer {
  const errorBody = typeof body === "string" ? { message: body } : body;
  if (status < 400) throw new Error(`apiError(${status}): an error answer has a 4xx or 5xx status`);
  const parsed = z.safeParse(apiErrorBodySchema, errorBody);
  if (!parsed.success) throw new Error(`apiError(${status}): not the API's error body: ${z.prettifyError(parsed.error)}`);
  return new OtherAnswer("error", () => HttpResponse.json(errorBody, { status }));
}

/** The request fails without an answer, as when the network is down. */
export function networkError(): OtherAnswer {
  return new OtherAnswer("network", () => HttpResponse.error());
}

/**
 * An answer sent exactly as written, unchecked: only for a test of how the client copes with an answer its
 * declaration does not allow (an empty 500, a body that is not the error body).
 */
export function malformed(response: Response): OtherAnswer {
  return new OtherAnswer("malformed", () => response);
}

/** No answer from this handler: the request goes on to the next one that matches (an earlier `server.use`, the defaults). */
export function nextHandler(): OtherAnswer {
  return new OtherAnswer("next", () => undefined);
}

/**
 * Handlers answering every endpoint of the API (or those `which` picks) with something other than its success: for
 * a screen whose other reads do not matter, or a refusal every route of a kind gives.
 */
export function everyEndpoint(
  resolve: (request: FakeRequest<Endpoint>) => OtherAnswer | Promise<OtherAnswer>,
  which: (endpoint: Endpoint) => boolean = () => true,
): HttpHandler[] {
  return apiTable.filter(which).map((endpoint) => handle(endpoint, resolve));
}

/** Problems with fake answers since the last `takeFakeProblems`: the test setup fails the test that had any. */
const problems: string[] = [];

export function takeFakeProblems(): string[] {
  return problems.splice(0);
}

/** Records a problem and fails the request with it (msw logs it and answers 500), so the test cannot pass. */
function fail(problem: string): never {
  problems.push(problem);
  throw new Error(problem);
}

const isSchema = (spec: AnswerSpec | undefined): spec is $ZodType => typeof spec === "object" && spec !== null && "_zod" in spec;

/**
 * An msw handler answering `endpoint` at its declared method and path, as the client addresses it (`callApi` and
 * `apiUrl` build the same path, relative to the page). The resolver gets the path parameters as numbers, the parsed
 * query and the JSON body (each checked against the declaration: a request the server would refuse is a problem);
 * it answers what the declaration says the endpoint answers on success (typed, and checked against the schema as
 * it is sent), or an `apiError(...)`, a `networkError()`, a `malformed(...)` response, or `nextHandler()`.
 */
export function handle<E extends Endpoint>(
  endpoint: E,
  resolve: NoInfer<FakeResolver<E>>,
  options: NoInfer<HandleOptions<E>> = {},
): HttpHandler {
  const where = `${endpoint.method} ${endpoint.path}`;
  const names = pathParamNames(endpoint.path);
  const status = successStatus(endpoint);
  const spec = endpoint.responses[status];
  const method = endpoint.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete";

  return http[method](endpoint.path, async ({ request, params: rawParams }) => {
    const params: Record<string, number> = {};
    for (const name of names) {
      const value = Number(rawParams[name]);
      // The server answers 404 for a parameter that is not an id; here the request is left to the next handler.
      if (!Number.isInteger(value) || value < 1) return undefined;
      params[name] = value;
    }
    const wanted = (options.params ?? {}) as Record<string, number | undefined>;
    if (Object.entries(wanted).some(([name, value]) => value !== undefined && params[name] !== value)) return undefined;

    const url = new URL(request.url);
    let query: unknown = undefined;
    if (endpoint.query) {
      const parsed = z.safeParse(endpoint.query, Object.fromEntries(url.searchParams));
      if (!parsed.success) fail(`${where}: the client sent a query its schema refuses: ${z.prettifyError(parsed.error)}`);
      query = parsed.data;
    }

    let body: unknown = undefined;
    const isJson = (request.headers.get("content-type") ?? "").startsWith("application/json");
    if (endpoint.body && (!endpoint.streamedBody || isJson)) {
      const text = await request.clone().text();
      body = text ? JSON.parse(text) : undefined;
      const parsed = z.safeParse(endpoint.body, body);
      if (!parsed.success) fail(`${where}: the client sent a body its schema refuses: ${z.prettifyError(parsed.error)}`);
    }

    const answer = await resolve({ params, query, body, request } as FakeRequest<E>);
    if (answer instanceof OtherAnswer) {
      const response = answer.response();
      if (answer.kind === "error" && response) {
        const declared = commonErrorStatuses.includes(response.status) || String(response.status) in (endpoint.errors ?? {});
        if (!declared) fail(`${where} answered ${response.status}, which it does not declare`);
      }
      return response;
    }
    if (spec === null) {
      if (answer !== undefined) fail(`${where} answers ${status} with no body, yet the fake gave one`);
      return new HttpResponse(null, { status });
    }
    if (isSchema(spec)) {
      const parsed = z.safeParse(spec, answer);
      if (!parsed.success) fail(`${where}: the fake's ${status} answer breaks the declared schema: ${z.prettifyError(parsed.error)}`);
      return HttpResponse.json(answer as never, { status });
    }
    if (!(answer instanceof Response)) return fail(`${where} answers ${(spec as RawAnswer).contentType}: the fake must give a Response`);
    if (!(answer.status in endpoint.responses)) {
      fail(`${where} answered ${answer.status}, which it does not declare (an error is an apiError(...))`);
    }
    const raw = endpoint.responses[answer.status];
    const contentType = answer.headers.get("content-type") ?? "";
    // A stored file is served as its own type: "application/octet-stream" declares bytes of any type.
    if (raw && "contentType" in raw && raw.contentType !== "application/octet-stream" && !contentType.startsWith(raw.contentType)) {
      fail(`${where} answers ${raw.contentType}, yet the fake's answer is ${contentType || "of no content type"}`);
    }
    return answer;
  });
}
