import { searchPageSchema, searchQuerySchema } from "../search";
import { endpoint } from "./endpoint";

const tag = "Search";

export const search = endpoint({
  method: "GET",
  path: "/api/search",
  summary:
    "Full-text search of the caller's active company (scope=company) or every company they belong to (scope=all): papers with " +
    "the page of each hit, minutes, resolutions, agenda items, action items and meetings, best first, a page at a time, each " +
    "with a highlighted snippet; with the papers that could not be searched",
  tag,
  access: { class: "own-user", by: "session" },
  query: searchQuerySchema,
  responses: { 200: searchPageSchema },
  errors: {
    400: "An empty query or one over 500 characters, a meeting of another company, or a cursor this search did not give",
    503: "The search took longer than the server allows (words found on nearly every page): narrow it",
  },
});
