import { meetingContent } from "./factories";
import { routeKey, type ApiRoute } from "./route-walker";

/**
 * How the tenancy test exercises routes from outside. Which routes exist and which class each is in come
 * from the app itself (route-walker.ts); this file only says what to send. A route loaded by a thing
 * (class `thing`, or an `own-user` route on a thing of the caller's) needs an entry naming the thing,
 * and the test fails when one is missing; any route may give bodies, so that the refusals are proved
 * against requests that would otherwise succeed.
 */

/** The things the test makes for company A (and its founder Alice) before walking. */
export type ThingKind = "meeting" | "document" | "company" | "notification" | "resolution";

export interface FixtureCall {
  /** Default: the route's path with each `:param` replaced by the id under test. */
  path?: string;
  body?: unknown;
}

export interface RouteFixture {
  /** Which of company A's (or Alice's) things goes where the route names one. */
  thing?: ThingKind;
  /** The calls that exercise the route, given the id under test; default one call, no body. */
  calls?: (id: number, people: { member: number }) => FixtureCall[];
}

export const routeFixtures: Record<string, RouteFixture> = {
  // companies
  "PUT /api/companies/:companyId": {
    calls: () => [{ body: { name: "Taken Over", industry: "technology", location: "Nowhere", stage: "seed", description: "hijacked" } }],
  },
  "POST /api/companies/:companyId/members": {
    calls: () => [
      { body: { email: "intruder-invite@example.com", role: "admin" } },
      { body: { email: "intruder-add@example.com", firstName: "In", lastName: "Truder", role: "admin", password: "secret-1" } },
    ],
  },
  // The company a role change acts in is named in the body: another company's is not revealed (404).
  "PATCH /api/users/:userId/role": {
    thing: "company",
    calls: (companyId, people) => [{ path: `/api/users/${people.member}/role`, body: { role: "admin", companyId } }],
  },
  // documents (a meeting is a document too)
  "GET /api/documents/:id": { thing: "document" },
  "DELETE /api/documents/:id": { thing: "document" },
  "GET /api/documents/:id/download": { thing: "document" },
  "POST /api/documents": {
    calls: () => [
      {
        body: {
          category: "Meeting",
          content: JSON.stringify(meetingContent(new Date("2026-07-01T10:00:00.000Z"), { title: "Intrusion" })),
        },
      },
    ],
  },
  // meetings
  "POST /api/new-meeting": { calls: () => [{ body: { title: "Intrusion", date: "2026-07-01T10:00:00.000Z" } }] },
  "POST /api/meetings/:id/generate-agenda": { thing: "meeting" },
  "GET /api/meetings/:id/calendar.ics": { thing: "meeting" },
  // resolutions
  "POST /api/resolutions": {
    calls: () => [
      { body: { title: "Intrusion", description: "Hijack", type: "Ordinary", deadline: "2026-12-31T23:59:59.999Z", documentIds: [] } },
    ],
  },
  "GET /api/resolutions/:id": { thing: "resolution" },
  "GET /api/resolutions/:id/votes": { thing: "resolution" },
  "POST /api/resolutions/:id/vote": { thing: "resolution", calls: () => [{ body: { vote: "no", comment: "hijacked" } }] },
  "POST /api/resolutions/:id/conflict": { thing: "resolution", calls: () => [{ body: { reason: "hijacked" } }] },
  "DELETE /api/resolutions/:id/conflict": { thing: "resolution" },
  "PUT /api/companies/:companyId/quorum": { calls: () => [{ body: { quorumPercent: 100 } }] },
  // compliance (a company's health and calendar: members only, no body)
  "GET /api/companies/:companyId/compliance": {},
  "GET /api/companies/:companyId/compliance.ics": {},
  "GET /api/users/:id/calendar-feed": {},
  "POST /api/users/:id/calendar-feed/rotate": {},
  // account
  "POST /api/notifications/:id/read": { thing: "notification" },
  "PATCH /api/users/:id": {
    calls: () => [{ body: { firstName: "Taken", lastName: "Over", profileImageUrl: "https://example.com/x.png" } }],
  },
  // A wrong current password: the refusal is proved without ever changing the real one.
  "PATCH /api/users/:id/password": {
    calls: () => [{ body: { currentPassword: "not-the-password", newPassword: "hijacked-1", confirmPassword: "hijacked-1" } }],
  },
  "PUT /api/users/:id/preferences": { calls: () => [{ body: { darkMode: true, meetingReminders: false } }] },
};

/** Routes loaded by a thing need to know which thing. */
export const needsFixture = (route: ApiRoute) =>
  route.class === "thing" || (route.guard?.class === "own-user" && route.guard.by === "owner");

/** What is wrong with the fixtures for these routes: a missing one where a thing is needed, or one for no route. */
export function fixtureProblems(routes: readonly ApiRoute[], fixtures: Record<string, RouteFixture> = routeFixtures): string[] {
  const keys = new Set(routes.map(routeKey));
  return [
    ...routes
      .filter((route) => needsFixture(route) && !fixtures[routeKey(route)]?.thing)
      .map((route) => `${routeKey(route)} has no fixture naming the thing its guard loads`),
    ...Object.keys(fixtures)
      .filter((key) => !keys.has(key))
      .map((key) => `the fixtures name ${key}, which is no route`),
  ];
}
