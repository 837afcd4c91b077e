/**
 * Every route under /api/companies/:companyId/... . The tenancy test walks this list and proves that
 * a member of another company gets 403 and no data from each. A feature that adds such a route adds it here.
 */
export interface CompanyRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** With ":companyId" where the company id goes. */
  path: string;
  body?: unknown;
}

export const companyScopedRoutes: CompanyRoute[] = [
  // companies
  { method: "get", path: "/api/companies/:companyId/settings" },
  {
    method: "put",
    path: "/api/companies/:companyId",
    body: { name: "Taken Over", industry: "technology", location: "Nowhere", stage: "seed", description: "hijacked" },
  },
  { method: "get", path: "/api/companies/:companyId/members" },
  { method: "post", path: "/api/companies/:companyId/members", body: { email: "intruder-invite@example.com", role: "admin" } },
  {
    method: "post",
    path: "/api/companies/:companyId/members",
    body: { email: "intruder-add@example.com", firstName: "In", lastName: "Truder", role: "admin", password: "secret-1" },
  },
  // meetings
  { method: "get", path: "/api/companies/:companyId/meetings/upcoming" },
];

/**
 * Every route that names one of a company's things by id (no company in the path). The tenancy test proves
 * that a member of another company gets 404 and no data for each, exactly as for an id that names nothing.
 * Platform-admin routes (/api/platform/settings/:id) are not a company's and are not listed.
 */
export interface ThingRoute {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** With ":id" where the thing's id goes. */
  path: string;
  /** Which of company A's things the test puts in for ":id". */
  thing: "meeting" | "document";
  body?: unknown;
}

export const thingScopedRoutes: ThingRoute[] = [
  // documents (a meeting is a document too)
  { method: "get", path: "/api/documents/:id", thing: "meeting" },
  // meetings
  { method: "post", path: "/api/meetings/:id/generate-agenda", thing: "meeting" },
  { method: "get", path: "/api/meetings/:id/calendar.ics", thing: "meeting" },
];
