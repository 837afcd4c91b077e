// How an endpoint of the API is declared. Every route is one declaration (shared/api/<feature>.ts): the
// server mounts its handler from it, the client calls it through it, and the OpenAPI document is generated
// from it, so the three cannot disagree. This module holds no schema itself and imports zod's types only:
// the client's bundle keeps just each declaration's method and path (see scripts/build/api-stubs.ts).
import type { $ZodType, output as ZodOutput, input as ZodInput } from "zod/v4/core";
import type { Permission } from "../permissions";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The things a route may load by id, whose company decides who may see them. */
export type ThingKind = "meeting" | "document" | "resolution" | "actionItem";

/**
 * Who may call an endpoint, and how the server proves it. The server picks its guard from this, and the
 * tenancy test proves each class from the outside:
 * - `public`: anyone, no session (a short list: health, register, login, unsubscribe, the calendar feed);
 * - `own-user`: a signed-in caller acting on their own account — by the session alone, by a path parameter
 *   that must name the caller (anyone else's: 403), or on a thing that must be the caller's (anyone else's: 404);
 * - `company`: a member of the company the path names, or of the caller's active company (a non-member: 403);
 *   `permission` narrows it to the roles that hold that capability (a company admin's routes name one only
 *   founders and admins hold);
 * - `thing`: a member of the company that owns the thing loaded by id (another company's: 404, like an id
 *   that names nothing); `by: "service"` when the service checks membership itself under the thing's row lock;
 *   `from: "body"` when the company is named in the body (or is the caller's active company);
 * - `platform`: platform administrators only.
 */
export type Access =
  | { class: "public" }
  | { class: "own-user"; by: "session" }
  | { class: "own-user"; by: "param"; param: string }
  | { class: "own-user"; by: "owner"; thing: "notification" | "passkey" | "invitation" | "note" }
  | { class: "company"; by: "param"; param: string; permission?: Permission }
  | { class: "company"; by: "active"; permission?: Permission }
  | { class: "thing"; thing: ThingKind; param: string; permission?: Permission; by?: "service" }
  | { class: "thing"; thing: "company"; from: "body"; permission?: Permission }
  | { class: "platform" };

/** An answer that is not JSON: a file, a calendar, a redirect. The handler writes it itself. */
export interface RawAnswer {
  contentType: string;
  description: string;
}

/** What a status answers: a JSON schema, a raw body, or nothing (204, 304). */
export type AnswerSpec = $ZodType | RawAnswer | null;

export interface Endpoint {
  method: HttpMethod;
  /** Express syntax: `/api/resolutions/:id/vote`. */
  path: string;
  summary: string;
  /** The OpenAPI tag: the feature a user sees. */
  tag: string;
  access: Access;
  /** Path parameters are read off `path`; each one is an id (a Postgres integer), and one that cannot be is a 404. */
  query?: $ZodType;
  /** The JSON body. */
  body?: $ZodType;
  /**
   * Set when the handler reads the body itself, as a stream (a document of up to 20 MiB, checked and stored as
   * it arrives): the server parses nothing first; `body` still describes the JSON form, and these are the others.
   */
  streamedBody?: readonly RawAnswer[];
  /** Every success status (and 304) with its answer. */
  responses: { [status: number]: AnswerSpec };
  /**
   * Error statuses beyond those every endpoint may answer (400 for bad input, 401, 403 and 404 as its access
   * class implies, 429, 500), each with when it is sent. Every error has the one error body.
   */
  errors?: { [status: number]: string };
}

/** Declares an endpoint, keeping its literal types (the client and server infer from them). */
export function endpoint<const E extends Endpoint>(declaration: E): E {
  return declaration;
}

/** The declared success status: the one the handler's answer is sent with (and a fake answer, in client tests). */
export function successStatus(endpoint: Endpoint): number {
  const status = Object.keys(endpoint.responses)
    .map(Number)
    .find((code) => code >= 200 && code < 300);
  if (status === undefined) throw new Error(`${endpoint.method} ${endpoint.path} declares no success status`);
  return status;
}

/** The names of a path's parameters (`:id`), in order. */
export const pathParamNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessKey<E extends Endpoint> = Extract<keyof E["responses"], SuccessStatus>;

/** The JSON the endpoint answers with on success (`void` for no body; `Response` for a raw one). */
export type AnswerOf<E extends Endpoint> = AnswerFromSpec<E["responses"][SuccessKey<E>]>;
type AnswerFromSpec<Spec> = Spec extends null ? void : Spec extends $ZodType ? ZodOutput<Spec> : Spec extends RawAnswer ? Response : never;

/** Path parameters by name, read off the path itself. */
export type PathParamNames<Path extends string> = Path extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Param}`
    ? Param
    : never;

type ParamsOf<E extends Endpoint> = [PathParamNames<E["path"]>] extends [never]
  ? { params?: undefined }
  : { params: Record<PathParamNames<E["path"]>, string | number> };
type QueryOf<E extends Endpoint> = E["query"] extends $ZodType ? { query: ZodInput<E["query"]> } : { query?: undefined };
type BodyOf<E extends Endpoint> = E["body"] extends $ZodType ? { body: ZodInput<E["body"]> } : { body?: undefined };

/** What a caller passes: the path's parameters, the query and the body, each when the endpoint has them. */
export type InputOf<E extends Endpoint> = ParamsOf<E> & QueryOf<E> & BodyOf<E>;

/** The input argument is optional when the endpoint takes none. */
export type InputArgs<E extends Endpoint> = Record<never, never> extends InputOf<E> ? [input?: InputOf<E>] : [input: InputOf<E>];

/**
 * The address of an endpoint with its parameters in place and its query appended (absent or null query
 * values are left out). A parameter missing from `params` is an error, never "undefined" in a path.
 */
export function pathOf(endpoint: Pick<Endpoint, "path">, params?: Record<string, string | number>, query?: object): string {
  const path = endpoint.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${endpoint.path} needs :${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}
