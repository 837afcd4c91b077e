// The OpenAPI 3.1 document of the API, generated from its declarations (shared/api/table.ts): what the server
// mounts, and nothing else, is what it describes. Schemas come from zod's own JSON Schema output (draft 2020-12,
// the dialect of OpenAPI 3.1): a request as the server accepts it (`io: "input"`), an answer as it is sent.
import { STATUS_CODES } from "node:http";
import { z } from "zod";
import type { $ZodType, JSONSchema } from "zod/v4/core";
import { pathParamNames, type Access, type AnswerSpec, type Endpoint, type HttpMethod, type RawAnswer } from "../../../shared/api/endpoint";
import type * as reference from "../../../shared/api/reference";
import { apiModules } from "../../../shared/api/table";
import { apiErrorBodySchema } from "../../../shared/api-error";
import { maxId } from "../../../shared/input";
import { permissions, type Permission } from "../../../shared/permissions";
import { companyRoles, hasRoleAtLeast, type CompanyRole } from "../../../shared/roles";
import type { Handler } from "./endpoints";
import { sessionCookieName } from "./session";

type Schema = JSONSchema.BaseSchema;

export interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: Schema;
}

export interface MediaType {
  schema?: Schema;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
}

/** The access class as declared, with the roles its permission admits: who may call, for a reader. */
export type AccessExtension = Access & { roles?: CompanyRole[] };

export interface Operation {
  operationId: string;
  summary: string;
  /** Who may call it, in words. */
  description: string;
  tags: [string];
  parameters?: Parameter[];
  requestBody?: { required: true; description?: string; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  security: Record<string, []>[];
  "x-access": AccessExtension;
}

export interface OpenApiDocument {
  openapi: "3.1.1";
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  tags: { name: string }[];
  paths: Record<string, Partial<Record<Lowercase<HttpMethod>, Operation>>>;
  components: {
    schemas: Record<string, Schema>;
    securitySchemes: Record<string, object>;
  };
}

/** The error body every refusal answers with: one component every error response refers to. */
export const errorBodyRef = "#/components/schemas/ApiError";

/** Express's `/api/resolutions/:id` as OpenAPI writes it: `/api/resolutions/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

const isRaw = (spec: AnswerSpec | undefined): spec is RawAnswer => typeof spec === "object" && spec !== null && !("_zod" in spec);

/** The roles that hold a capability, highest first. */
const rolesHolding = (permission: Permission): CompanyRole[] =>
  companyRoles.filter((role) => hasRoleAtLeast(role, permissions[permission].minRole));

/** Who may call an endpoint, in words: what the reference shows beside each operation. */
export function whoMayCall(access: Access): string {
  const holding =
    "permission" in access && access.permission
      ? `, whose role holds ${access.permission} (${rolesHolding(access.permission).join(", ")})`
      : "";
  switch (access.class) {
    case "public":
      return "Anyone, without a session.";
    case "platform":
      return "Platform administrators only.";
    case "own-user":
      if (access.by === "session") return "Any signed-in user, on their own account.";
      if (access.by === "param") return `A signed-in user, on their own account: :${access.param} must be the caller's id.`;
      return `A signed-in user, on a ${access.thing} of their own.`;
    case "company":
      return access.by === "param"
        ? `A member of the company :${access.param} names${holding}.`
        : `A member of the caller's active company${holding}.`;
    case "thing":
      if ("from" in access) return `A member of the company the body names (else the caller's active company)${holding}.`;
      return access.by === "service"
        ? `A member of the company that owns the ${access.thing} :${access.param} names${holding}, whose role may act on it (checked under the ${access.thing}'s row lock).`
        : `A member of the company that owns the ${access.thing} :${access.param} names${holding}.`;
  }
}

/** When the endpoint answers 403, or undefined when it cannot. */
function forbiddenWhen(access: Access): string | undefined {
  // A company that requires a second factor refuses, on every route of its own, a session that did not pass one.
  const secondFactor = "; or the company requires a second factor this session did not pass (code second_factor_required)";
  if ("permission" in access && access.permission) return `The caller's role does not hold ${access.permission}${secondFactor}`;
  switch (access.class) {
    case "platform":
      return "The caller is not a platform administrator";
    case "company":
      return `The caller is not a member of the company${secondFactor}`;
    case "own-user":
      return access.by === "param" ? `:${access.param} names another user` : undefined;
    case "thing":
      return "by" in access && access.by === "service"
        ? "The caller's role may not do this"
        : `The company requires a second factor this session did not pass (code second_factor_required)`;
    default:
      return undefined;
  }
}

/** When the endpoint answers 404, or undefined when it cannot. */
function notFoundWhen(endpoint: Endpoint): string | undefined {
  const { access } = endpoint;
  if (access.class === "thing")
    return access.thing === "company" ? "No such company, or not the caller's" : `No such ${access.thing}, or another company's`;
  if (access.class === "own-user" && access.by === "owner") return `No such ${access.thing}, or another user's`;
  return pathParamNames(endpoint.path).length > 0 ? "An id that names nothing" : undefined;
}

/** Every error status the endpoint can answer, with when: those its input and access class imply, then its own. */
export function errorsOf(endpoint: Endpoint): Record<number, string> {
  const errors: Record<number, string> = {};
  if (endpoint.body || endpoint.query) errors[400] = "The input is refused: the body names each field and why";
  if (endpoint.access.class !== "public") errors[401] = "No session, or one that has ended";
  const forbidden = forbiddenWhen(endpoint.access);
  if (forbidden) errors[403] = forbidden;
  const notFound = notFoundWhen(endpoint);
  if (notFound) errors[404] = notFound;
  return { ...errors, ...endpoint.errors };
}

/**
 * zod writes JavaScript's safe-integer range on every `.int()`: bounds no JSON reader needs, on every id and
 * count. Ranges a schema sets itself (1 to 100) stay.
 */
function withoutSafeIntegerBounds({ jsonSchema }: { jsonSchema: Schema }): void {
  if (jsonSchema.type === "integer" && jsonSchema.minimum === Number.MIN_SAFE_INTEGER && jsonSchema.maximum === Number.MAX_SAFE_INTEGER) {
    delete jsonSchema.minimum;
    delete jsonSchema.maximum;
  }
}

function rewriteRefs(value: unknown, to: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, to));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === "$ref" && typeof item === "string" ? to(item) : rewriteRefs(item, to)]),
  );
}

/**
 * A zod schema as a JSON Schema inside the document. A recursive or named schema refers to its parts as
 * `#/$defs/…` and to itself as `#`, which inside the document would mean the document's root: so they move
 * to the components, named after where they are used (`name`).
 */
function jsonSchemaOf(schema: $ZodType, io: "input" | "output", name: string, components: Record<string, Schema>): Schema {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any", override: withoutSafeIntegerBounds });
  const { $schema: _dialect, $defs, ...root } = generated;
  const refersToItself = JSON.stringify(generated).includes('"$ref":"#"');
  if (!$defs && !refersToItself) return root;
  const componentRef = (ref: string) => `#/components/schemas/${ref === "#" ? name : `${name}.${ref.replace("#/$defs/", "")}`}`;
  for (const [defName, def] of Object.entries($defs ?? {})) components[`${name}.${defName}`] = rewriteRefs(def, componentRef) as Schema;
  const rewritten = rewriteRefs(root, componentRef) as Schema;
  if (!refersToItself) return rewritten;
  components[name] = rewritten;
  return { $ref: componentRef("#") };
}

const idSchema: Schema = { type: "integer", minimum: 1, maximum: maxId };

function queryParameters(endpoint: Endpoint, name: string, components: Record<string, Schema>): Parameter[] {
  if (!endpoint.query) return [];
  const schema = jsonSchemaOf(endpoint.query, "input", `${name}.query`, components);
  if (schema.type !== "object" || !schema.properties) {
    throw new Error(`${endpoint.method} ${endpoint.path}: its query schema must be an object of named parameters`);
  }
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([parameter, property]) => {
    const propertySchema = typeof property === "boolean" ? {} : property;
    return {
      name: parameter,
      in: "query",
      required: required.has(parameter),
      ...(propertySchema.description ? { description: propertySchema.description } : {}),
      schema: propertySchema,
    };
  });
}

function requestBodyOf(endpoint: Endpoint, name: string, components: Record<string, Schema>): Operation["requestBody"] {
  if (!endpoint.body) return undefined;
  const content: Record<string, MediaType> = {
    "application/json": { schema: jsonSchemaOf(endpoint.body, "input", `${name}.body`, components) },
  };
  for (const raw of endpoint.streamedBody ?? []) content[raw.contentType] = {};
  const description = endpoint.streamedBody?.map((raw) => `${raw.contentType}: ${raw.description}`).join("; ");
  return { required: true, ...(description ? { description } : {}), content };
}

const statusText = (status: number) => STATUS_CODES[status] ?? `Status ${status}`;

function responsesOf(endpoint: Endpoint, name: string, components: Record<string, Schema>): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, spec] of Object.entries(endpoint.responses)) {
    if (spec === null) responses[status] = { description: statusText(Number(status)) };
    else if (isRaw(spec)) responses[status] = { description: spec.description, content: { [spec.contentType]: {} } };
    else {
      const schema = jsonSchemaOf(spec, "output", `${name}.${status}`, components);
      responses[status] = { description: statusText(Number(status)), content: { "application/json": { schema } } };
    }
  }
  for (const [status, when] of Object.entries(errorsOf(endpoint))) {
    responses[status] = { description: when, content: { "application/json": { schema: { $ref: errorBodyRef } } } };
  }
  return responses;
}

/** A bearer token anywhere; the session cookie too on reads (it is never honoured on a write). */
function securityOf(endpoint: Endpoint): Operation["security"] {
  if (endpoint.access.class === "public") return [];
  return endpoint.method === "GET" ? [{ bearerToken: [] }, { sessionCookie: [] }] : [{ bearerToken: [] }];
}

function operationOf(name: string, endpoint: Endpoint, components: Record<string, Schema>): Operation {
  const { access } = endpoint;
  const parameters: Parameter[] = [
    ...pathParamNames(endpoint.path).map((param): Parameter => ({ name: param, in: "path", required: true, schema: idSchema })),
    ...queryParameters(endpoint, name, components),
  ];
  const requestBody = requestBodyOf(endpoint, name, components);
  return {
    operationId: name,
    summary: endpoint.summary,
    description: whoMayCall(access),
    tags: [endpoint.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: responsesOf(endpoint, name, components),
    security: securityOf(endpoint),
    "x-access": "permission" in access && access.permission ? { ...access, roles: rolesHolding(access.permission) } : access,
  };
}

const methodOrder: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Builds the document from declaring modules (by default the API's own table); each export's name is its operationId. */
export function buildOpenApiDocument(modules: Record<string, Record<string, Endpoint>> = apiModules): OpenApiDocument {
  const errorBody = z.toJSONSchema(apiErrorBodySchema, { target: "draft-2020-12" });
  const { $schema: _dialect, ...errorSchema } = errorBody;
  const components: Record<string, Schema> = { ApiError: errorSchema };
  const paths: OpenApiDocument["paths"] = {};
  const tags: string[] = [];
  const operationIds = new Set<string>();
  const named = Object.values(modules).flatMap((declarations) => Object.entries(declarations));
  // A reader looks an endpoint up by feature, then by address: tags and paths in alphabetical order.
  named.sort(([, a], [, b]) => a.path.localeCompare(b.path) || methodOrder.indexOf(a.method) - methodOrder.indexOf(b.method));
  for (const [name, endpoint] of named) {
    if (operationIds.has(name)) throw new Error(`two endpoints are declared as ${name}: an operationId names one`);
    operationIds.add(name);
    if (!tags.includes(endpoint.tag)) tags.push(endpoint.tag);
    const methods = (paths[openApiPath(endpoint.path)] ??= {});
    methods[endpoint.method.toLowerCase() as Lowercase<HttpMethod>] = operationOf(name, endpoint, components);
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "Quorum API",
      // The API is not versioned apart from the server: the document describes the server that answers it.
      version: "1",
      description: "Board governance: companies, meetings, documents, resolutions and votes. Every error answers the ApiError body.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    tags: tags.sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerToken: { type: "http", scheme: "bearer", description: "The token sign-in and registration answer" },
        sessionCookie: { type: "apiKey", in: "cookie", name: sessionCookieName, description: "Set at sign-in; honoured on GET only" },
      },
    },
  };
}

let built: { document: OpenApiDocument; json: string } | undefined;

/** Built on first use, once: the table does not change while the process runs. */
function builtOnce(): { document: OpenApiDocument; json: string } {
  if (!built) {
    const document = buildOpenApiDocument();
    built = { document, json: JSON.stringify(document) };
  }
  return built;
}

/** The API's own document. */
export const openApiDocument = (): OpenApiDocument => builtOnce().document;

export const serveOpenApiDocument: Handler<typeof reference.openApiDocument> = async ({ res }) => {
  res.type("application/json").send(builtOnce().json);
};
