import { Validator } from "@seriousme/openapi-schema-validator";
import express from "express";
import request from "supertest";
import { z } from "zod";
import { endpoint } from "../../../shared/api/endpoint";
import { apiTable } from "../../../shared/api/table";
import { apiErrorBodySchema } from "../../../shared/api-error";
import { maxId } from "../../../shared/input";
import { voteCountsSchema, type VoteCounts } from "../../../shared/resolutions";
import { apiRoutes, routeKey } from "../testing/route-walker";
import { useTestContext } from "../testing/test-context";
import { mountRoutes, route } from "./endpoints";
import { errorHandler } from "./errors";
import { createGuards } from "./guards";
import { buildOpenApiDocument, errorBodyRef, openApiDocument, type OpenApiDocument, type Operation } from "./openapi";

const ctx = useTestContext();

async function served(): Promise<OpenApiDocument> {
  const response = await request(ctx.app).get("/api/openapi.json");
  expect(response.status).toBe(200);
  expect(response.type).toBe("application/json");
  return response.body as OpenApiDocument;
}

/** Each operation under its route's key as the router writes it: `GET /api/resolutions/:id`. */
function operationsOf(document: OpenApiDocument): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      operations.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`, operation);
    }
  }
  return operations;
}

const operation = (document: OpenApiDocument, key: string): Operation => {
  const found = operationsOf(document).get(key);
  if (!found) throw new Error(`the document has no ${key}`);
  return found;
};

const validate = (document: object) => new Validator().validate(document as Record<string, unknown>);

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const document = await served();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(await validate(document)).toEqual({ valid: true });
  });

  it("describes every route the app serves, each mounted from its declaration, and no other", async () => {
    const documented = operationsOf(await served());
    const { routes } = apiRoutes(ctx.app);
    const servedKeys = new Set(routes.map(routeKey));
    const undeclared = routes
      .filter((found) => !documented.has(routeKey(found)) || found.endpoint === undefined || !apiTable.includes(found.endpoint))
      .map(routeKey);
    const notServed = [...documented.keys()].filter((key) => !servedKeys.has(key));
    expect({ undeclared, notServed }).toEqual({ undeclared: [], notServed: [] });
  });

  it("describes an operation's parameters, body, answers, errors, security and access from its declaration", async () => {
    const document = await served();
    const vote = operation(document, "POST /api/resolutions/:id/vote");
    expect(vote).toMatchObject({
      operationId: "castVote",
      tags: ["Resolutions"],
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1, maximum: maxId } }],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["vote"] } } } },
      security: [{ bearerToken: [] }],
      "x-access": { class: "thing", thing: "resolution", param: "id", by: "service" },
    });
    expect(Object.keys(vote.responses)).toEqual(["200", "400", "401", "403", "404", "409"]);
    expect(vote.responses["409"]!.description).toBe("The resolution is decided, its deadline has passed, or it is a written resolution");
    expect(vote.responses["200"]!.content!["application/json"]!.schema).toMatchObject({
      properties: { total: { type: "integer" }, userVote: { anyOf: [{ enum: ["yes", "no", "abstain"] }, { type: "null" }] } },
    });
    for (const status of ["400", "401", "403", "404", "409"]) {
      expect(vote.responses[status]!.content).toEqual({ "application/json": { schema: { $ref: errorBodyRef } } });
    }
    const { $schema: _dialect, ...errorBody } = z.toJSONSchema(apiErrorBodySchema);
    expect(document.components.schemas.ApiError).toEqual(errorBody);

    // A read also takes the session cookie; a permission is spelled out with the roles that hold it.
    const quorum = operation(document, "PUT /api/companies/:companyId/quorum");
    expect(quorum["x-access"]).toEqual({
      class: "company",
      by: "param",
      param: "companyId",
      permission: "editCompany",
      roles: ["founder", "admin"],
    });
    expect(quorum.description).toBe("A member of the company :companyId names, whose role holds editCompany (founder, admin).");
    expect(operation(document, "GET /api/resolutions/:id/votes").security).toEqual([{ bearerToken: [] }, { sessionCookie: [] }]);
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: "apiKey", in: "cookie", name: "quorum_session" });

    // Nothing to answer has no content; a raw answer has its own content type; a public one asks for no session.
    expect(operation(document, "POST /api/resolutions/:id/conflict").responses["204"]).toEqual({ description: "No Content" });
    const docs = operation(document, "GET /api/docs");
    expect(docs.security).toEqual([]);
    expect(docs.responses).toEqual({ "200": { description: expect.any(String), content: { "text/html": {} } } });
  });

  it("writes the shared input helpers as what the server accepts: trimmed text bounds, ISO timestamps, ids as number or digits", async () => {
    const document = await served();
    const create = operation(document, "POST /api/resolutions").requestBody!.content["application/json"]!.schema!;
    expect(create.properties).toMatchObject({
      title: { type: "string", minLength: 1, maxLength: 200 },
      deadline: { type: "string", format: "date-time" },
      documentIds: { type: "array", maxItems: 50, items: { type: ["number", "string"] } },
    });
    // An answer's integers carry no bounds zod adds itself; a bound the schema sets stays.
    expect(JSON.stringify(document)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const quorumBody = operation(document, "PUT /api/companies/:companyId/quorum").requestBody!.content["application/json"]!.schema!;
    expect(quorumBody.properties!.quorumPercent).toEqual({ anyOf: [{ type: "integer", minimum: 1, maximum: 100 }, { type: "null" }] });
  });

  it("is built once per process", () => {
    expect(openApiDocument()).toBe(openApiDocument());
  });
});

describe("buildOpenApiDocument", () => {
  const tag = "Test";
  const access = { class: "public" } as const;

  it("lists a query schema's properties as query parameters", async () => {
    const document = buildOpenApiDocument({
      feed: {
        feed: endpoint({
          method: "GET",
          path: "/api/feed",
          summary: "A feed",
          tag,
          access,
          query: z.object({ key: z.string().max(64), limit: z.optional(z.string()) }),
          responses: { 200: { contentType: "text/calendar", description: "The feed" } },
        }),
      },
    });
    expect(await validate(document)).toEqual({ valid: true });
    expect(operation(document, "GET /api/feed").parameters).toEqual([
      { name: "key", in: "query", required: true, schema: { type: "string", maxLength: 64 } },
      { name: "limit", in: "query", required: false, schema: { type: "string" } },
    ]);
    expect(Object.keys(operation(document, "GET /api/feed").responses)).toEqual(["200", "400"]);
  });

  it("moves a recursive answer's parts to the components, where its references resolve", async () => {
    interface Item {
      title: string;
      children: Item[];
    }
    const item: z.ZodType<Item> = z.object({ title: z.string(), children: z.array(z.lazy(() => item)) });
    const document = buildOpenApiDocument({
      agenda: {
        tree: endpoint({ method: "GET", path: "/api/tree", summary: "A tree", tag, access, responses: { 200: item } }),
        forest: endpoint({
          method: "GET",
          path: "/api/forest",
          summary: "Trees",
          tag,
          access,
          responses: { 200: z.object({ trees: z.array(item) }) },
        }),
      },
    });
    expect(await validate(document)).toEqual({ valid: true });
    expect(JSON.stringify(document)).not.toContain("$defs");
    expect(operation(document, "GET /api/tree").responses["200"]!.content!["application/json"]!.schema).toEqual({
      $ref: "#/components/schemas/tree.200",
    });
  });

  it("refuses two endpoints of one name, and a query that is not an object of parameters", () => {
    const one = endpoint({ method: "GET", path: "/api/one", summary: "One", tag, access, responses: { 204: null } });
    expect(() => buildOpenApiDocument({ a: { one }, b: { one: { ...one, path: "/api/two" } } })).toThrow(
      "two endpoints are declared as one",
    );
    expect(() => buildOpenApiDocument({ a: { one: { ...one, query: z.string() } } })).toThrow(
      "GET /api/one: its query schema must be an object of named parameters",
    );
  });
});

describe("GET /api/docs", () => {
  it("is a page naming every operation of the document", async () => {
    const document = await served();
    const response = await request(ctx.app).get("/api/docs");
    expect(response.status).toBe(200);
    expect(response.type).toBe("text/html");
    const missing = [...operationsOf(document)].filter(
      ([, found]) =>
        !response.text.includes(`<code>${found.operationId}</code>`) || !response.text.includes(found.summary.replace(/'/g, "&#39;")),
    );
    expect(missing.map(([key]) => key)).toEqual([]);
    expect(response.text).toContain('<code class="path">/api/resolutions/{id}/vote</code>');
  });

  it("asks for nothing from another origin and runs no script", async () => {
    const response = await request(ctx.app).get("/api/docs");
    const host = response.request.url.replace(/^https?:\/\/([^/]+).*$/, "$1");
    const absolute = [...response.text.matchAll(/(?:https?:)?\/\/([^\s"'<>/]+)/g)]
      .filter((match) => match[1] !== host)
      .map((match) => match[0]);
    expect(absolute).toEqual([]);
    const addresses = [...response.text.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((match) => match[1]!);
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !/^(#|\/(?!\/))/.test(address))).toEqual([]);
    expect(response.text).not.toMatch(/<script|<link|@import/i);
  });
});

describe("answers held to their declaration", () => {
  it("reports a JSON answer its declared schema refuses", async () => {
    const declared = endpoint({
      method: "GET",
      path: "/api/test/vote-counts",
      summary: "Vote counts",
      tag: "Test",
      access: { class: "public" },
      responses: { 200: voteCountsSchema },
    });
    const wrongShape = { yes: 1, no: 0, abstain: 0, total: "one", userVote: null } as unknown as VoteCounts;
    const problems: string[] = [];
    const app = express();
    app.use(
      mountRoutes([route(declared, async () => wrongShape)], {
        guards: createGuards(ctx.deps),
        checkAnswers: (problem) => problems.push(problem),
      }),
    );
    app.use(errorHandler);

    const response = await request(app).get("/api/test/vote-counts");
    expect(response.status).toBe(200);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GET \/api\/test\/vote-counts answered 200 with a body its schema refuses: /);
    expect(problems[0]).toContain('"path": [\n      "total"\n    ]');
  });
});
