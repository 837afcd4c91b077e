import { http, HttpResponse } from "msw";
import type { User } from "@shared/auth";
import { complianceGroupNames } from "@shared/compliance";
import { preferenceDefaults } from "@shared/preferences";

/**
 * The handlers every test starts with: nobody is signed in, nobody is a platform admin,
 * no notifications, no companies. Tests add their own with `server.use(...)`.
 */
export const handlers = [
  http.get("/api/auth/user", () => HttpResponse.json({ message: "Unauthorized" }, { status: 401 })),
  http.get("/api/auth/check-platform-admin", () => HttpResponse.json({ isPlatformAdmin: false })),
  // Settings → Security: no passkey, and the authenticator app's status follows the user's second factor.
  http.get("/api/auth/passkeys", () => HttpResponse.json([])),
  http.get("/api/auth/totp", () => HttpResponse.json({ enabled: true })),
  http.get("/api/notifications", () => HttpResponse.json([])),
  // The signed-in user's switches: never saved, so the defaults.
  http.get("/api/users/:id/preferences", () => HttpResponse.json(preferenceDefaults)),
  // The sidebar's company block lists the user's companies.
  http.get("/api/companies", () => HttpResponse.json([])),
  // Board Members and Company Settings: a company with nobody listed yet.
  http.get("/api/companies/:companyId/members", () => HttpResponse.json([])),
  http.get("/api/companies/:companyId/settings", ({ params }) =>
    HttpResponse.json({
      company: {
        id: Number(params.companyId),
        name: "Acme Holdings",
        industry: "technology",
        location: "London, United Kingdom",
        stage: "seed",
        description: null,
        logoUrl: null,
        website: null,
        employeeCount: null,
        invitationMessage: null,
        requireSecondFactor: false,
        createdAt: "2026-01-01T00:00:00.000Z",
      },
      members: [],
      invitations: [],
    }),
  ),
  // Invitations: none to the user (the dashboard), none of the company (Board Members, Company Settings).
  http.get("/api/invitations", () => HttpResponse.json([])),
  http.get("/api/companies/:companyId/invitations", () => HttpResponse.json([])),
  // Meetings (the dashboard panel, /meetings, /meetings/:id): none yet; a meeting by id does not exist.
  http.get("/api/companies/:companyId/meetings/upcoming", () => HttpResponse.json([])),
  // Action items (the dashboard's My action items, a meeting's list): none yet.
  http.get("/api/companies/:companyId/action-items", () => HttpResponse.json([])),
  http.get("/api/meetings/:id/action-items", () => HttpResponse.json([])),
  http.get("/api/documents", () => HttpResponse.json([])),
  // Resolutions (the dashboard panel, /resolutions, the quorum in Company Settings): none yet, the default quorum.
  http.get("/api/companies/:companyId/resolutions", () => HttpResponse.json([])),
  http.get("/api/companies/:companyId/resolutions/pending", () => HttpResponse.json([])),
  http.get("/api/resolutions/:id", () => HttpResponse.json({ message: "Not found" }, { status: 404 })),
  http.get("/api/companies/:companyId/quorum", () =>
    HttpResponse.json({ quorumPercent: null, rule: "more than half of the eligible voters" }),
  ),
  // The library and the dashboard's recent documents: empty.
  http.get("/api/companies/:companyId/documents", () => HttpResponse.json([])),
  http.get("/api/companies/:companyId/documents/recent", () => HttpResponse.json([])),
  http.get("/api/documents/:id", () => HttpResponse.json({ message: "Not found" }, { status: 404 })),
  // The dashboard's compliance panels: the three groups with no rule to report, so nothing is due.
  http.get("/api/companies/:companyId/compliance", () =>
    HttpResponse.json(complianceGroupNames.map((name) => ({ name, progress: 0, items: [] }))),
  ),
];

/** The signed-in session of `user`: GET /api/auth/user answers it and the platform-admin check says `isPlatformAdmin`. */
export function signedInHandlers(user: User, { isPlatformAdmin = user.isPlatformAdmin } = {}) {
  return [
    http.get("/api/auth/user", () => HttpResponse.json(user)),
    http.get("/api/auth/check-platform-admin", () => HttpResponse.json({ isPlatformAdmin })),
  ];
}
