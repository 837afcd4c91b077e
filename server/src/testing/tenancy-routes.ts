import { meetingContent } from "./factories";
import { routeKey, type ApiRoute } from "./route-walker";

/**
 * How the tenancy test exercises routes from outside. Which routes exist, which class each is in and which
 * thing a route loads come from the app itself (route-walker.ts, and each route's declaration); this file
 * only says what to send: any route may give bodies, so that the refusals are proved against requests that
 * would otherwise succeed.
 */

/** The things the test makes for company A (and its founder Alice) before walking. */
export type ThingKind =
  "meeting" | "document" | "company" | "notification" | "passkey" | "invitation" | "resolution" | "actionItem" | "note";

/** The ids of those things, each 0 until the test made it. */
export const noThingsYet = (): Record<ThingKind, number> => ({
  meeting: 0,
  document: 0,
  company: 0,
  notification: 0,
  passkey: 0,
  invitation: 0,
  resolution: 0,
  actionItem: 0,
  note: 0,
});

export interface FixtureCall {
  /** Default: the route's path with each `:param` replaced by the id under test. */
  path?: string;
  body?: unknown;
}

export interface RouteFixture {
  /** The calls that exercise the route, given the id under test; default one call, no body. */
  /** `people.member`: a member of company A besides its founder; `people.invitation`: an invitation of company A to an outsider. */
  /** `people.writtenResolution`: a decided written resolution of company A (the tenancy test's; the fuzz test reads bodies only). */
  calls?: (id: number, people: { member: number; invitation: number; writtenResolution?: number }) => FixtureCall[];
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
  // An invitation of the company, resent, then withdrawn.
  "POST /api/companies/:companyId/invitations/:id/resend": {
    calls: (companyId, people) => [{ path: `/api/companies/${companyId}/invitations/${people.invitation}/resend` }],
  },
  "DELETE /api/companies/:companyId/invitations/:id": {
    calls: (companyId, people) => [{ path: `/api/companies/${companyId}/invitations/${people.invitation}` }],
  },
  // The company a role change acts in is named in the body: another company's is not revealed (404).
  "PATCH /api/users/:userId/role": {
    calls: (companyId, people) => [{ path: `/api/users/${people.member}/role`, body: { role: "admin", companyId } }],
  },
  // documents (a meeting is a document too)
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
  // reading and private notes
  "POST /api/documents/:id/reads": { calls: () => [{ body: { version: 1, pages: [1] } }] },
  "POST /api/documents/:id/notes": { calls: () => [{ body: { version: 1, page: 1, quote: "Intrusion", text: "Intrusion" } }] },
  "PATCH /api/notes/:id": { calls: () => [{ body: { text: "Hijacked" } }] },
  // The walk's paper is at its first version.
  "GET /api/documents/:id/versions/:version/download": { calls: (id) => [{ path: `/api/documents/${id}/versions/1/download` }] },
  // meetings
  "POST /api/new-meeting": { calls: () => [{ body: { title: "Intrusion", date: "2026-07-01T10:00:00.000Z" } }] },
  // resolutions
  "POST /api/resolutions": {
    calls: () => [
      { body: { title: "Intrusion", description: "Hijack", type: "Ordinary", deadline: "2026-12-31T23:59:59.999Z", documentIds: [] } },
      { body: { procedure: "written", title: "Intrusion", description: "Hijack", documentIds: [] } },
    ],
  },
  // A signature by password (a passkey's would need the caller's own statement): refused before any proof is looked at.
  "POST /api/resolutions/:id/sign-options": { calls: () => [{ body: { decision: "agree" } }] },
  "POST /api/resolutions/:id/signatures": { calls: () => [{ body: { decision: "agree", password: "hijacked-1" } }] },
  // Only a decided written resolution has a certificate to read.
  "GET /api/resolutions/:id/certificate.json": {
    calls: (id, people) => [{ path: `/api/resolutions/${people.writtenResolution ?? id}/certificate.json` }],
  },
  "POST /api/resolutions/:id/vote": { calls: () => [{ body: { vote: "no", comment: "hijacked" } }] },
  "POST /api/resolutions/:id/conflict": { calls: () => [{ body: { reason: "hijacked" } }] },
  "POST /api/resolutions/:id/nudge": { calls: (_id, people) => [{ body: { userId: people.member } }] },
  "PUT /api/companies/:companyId/quorum": { calls: () => [{ body: { quorumPercent: 100 } }] },
  // attendance and a show of hands
  "PUT /api/meetings/:id/attendance": {
    calls: (_id, people) => [{ body: { attendees: [{ userId: people.member, status: "present" }], guests: [{ name: "Intruder" }] } }],
  },
  "POST /api/resolutions/:id/meeting-vote": {
    calls: (id, people) => [{ body: { meetingId: id, votes: [{ userId: people.member, vote: "no" }] } }],
  },
  // action items
  "POST /api/meetings/:id/action-items": {
    calls: (_id, people) => [{ body: { title: "Intrusion", ownerId: people.member, dueDate: "2026-12-31" } }],
  },
  "PATCH /api/action-items/:id": { calls: (_id, people) => [{ body: { title: "Hijacked", ownerId: people.member, status: "done" } }] },
  // minutes (drafting, editing and approving another company's minutes are refused before anything is read)
  "POST /api/meetings/:id/minutes/draft": { calls: () => [{ body: { improve: false } }] },
  "PUT /api/meetings/:id/minutes": { calls: () => [{ body: { text: "Hijacked minutes" } }] },
  "POST /api/meetings/:id/minutes/approve": { calls: () => [{ body: { via: "chair" } }, { body: { via: "resolution" } }] },
  // compliance (a company's health and calendar: members only, no body)
  "GET /api/companies/:companyId/compliance": {},
  "GET /api/companies/:companyId/compliance.ics": {},
  "GET /api/users/:id/calendar-feed": {},
  // the audit trail (founders and admins; reading, exporting and verifying change nothing)
  "GET /api/companies/:companyId/audit": { calls: (id) => [{}, { path: `/api/companies/${id}/audit?action=company.create&limit=5` }] },
  "GET /api/companies/:companyId/audit/export": {},
  "GET /api/companies/:companyId/audit/verify": {},
  "POST /api/users/:id/calendar-feed/rotate": {},
  // account
  "PATCH /api/users/:id": {
    calls: () => [{ body: { firstName: "Taken", lastName: "Over", profileImageUrl: "https://example.com/x.png" } }],
  },
  // A wrong current password: the refusal is proved without ever changing the real one.
  "PATCH /api/users/:id/password": {
    calls: () => [{ body: { currentPassword: "not-the-password", newPassword: "hijacked-1", confirmPassword: "hijacked-1" } }],
  },
  "PUT /api/users/:id/preferences": { calls: () => [{ body: { darkMode: true, meetingReminders: false } }] },
};

/** Which of company A's (or Alice's) things the route loads, as its declaration says. */
export function thingOf(route: ApiRoute): ThingKind | undefined {
  const access = route.endpoint?.access;
  if (access?.class === "thing") return access.thing;
  if (access?.class === "own-user" && access.by === "owner") return access.thing;
  return undefined;
}

/** What is wrong with the fixtures for these routes: one for no route. */
export function fixtureProblems(routes: readonly ApiRoute[], fixtures: Record<string, RouteFixture> = routeFixtures): string[] {
  const keys = new Set(routes.map(routeKey));
  return Object.keys(fixtures)
    .filter((key) => !keys.has(key))
    .map((key) => `the fixtures name ${key}, which is no route`);
}
