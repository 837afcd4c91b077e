import { endpoint } from "./endpoint";

const tag = "Reference";

export const openApiDocument = endpoint({
  method: "GET",
  path: "/api/openapi.json",
  summary: "This API as an OpenAPI 3.1 document, generated from its declarations",
  tag,
  access: { class: "public" },
  responses: { 200: { contentType: "application/json", description: "The OpenAPI 3.1 document" } },
});

export const apiReference = endpoint({
  method: "GET",
  path: "/api/docs",
  summary: "This API's reference as a page: every endpoint by feature, who may call it, what it takes and answers",
  tag,
  access: { class: "public" },
  responses: { 200: { contentType: "text/html", description: "The reference page, generated from the same declarations" } },
});
