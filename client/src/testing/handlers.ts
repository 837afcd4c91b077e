import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as companiesApi from "@shared/api/companies";
import * as complianceApi from "@shared/api/compliance";
import * as documentsApi from "@shared/api/documents";
import * as meetingRecordApi from "@shared/api/meeting-record";
import * as meetingsApi from "@shared/api/meetings";
import * as notificationsApi from "@shared/api/notifications";
import * as readingApi from "@shared/api/reading";
import * as resolutionsApi from "@shared/api/resolutions";
import * as searchApi from "@shared/api/search";
import * as secondFactorApi from "@shared/api/second-factor";
import type { User } from "@shared/auth";
import { complianceGroupNames } from "@shared/compliance";
import { preferenceDefaults } from "@shared/preferences";
import { buildCompany } from "@/testing/factories";
import { apiError, handle } from "@/testing/handle";

/**
 * The handlers every test starts with: nobody is signed in, nobody is a platform admin,
 * no notifications, no companies. Tests add their own with `server.use(...)`.
 */
export const handlers = [
  handle(authApi.currentUser, () => apiError(401, "Unauthorized")),
  handle(authApi.checkPlatformAdmin, () => ({ isPlatformAdmin: false })),
  // Settings → Security: no passkey, and the authenticator app's status follows the user's second factor.
  handle(secondFactorApi.listPasskeys, () => []),
  handle(secondFactorApi.getTotpStatus, () => ({ enabled: true })),
  handle(notificationsApi.listNotifications, () => []),
  // The signed-in user's switches: never saved, so the defaults.
  handle(accountApi.getPreferences, () => preferenceDefaults),
  // The sidebar's company block lists the user's companies.
  handle(companiesApi.listCompanies, () => []),
  // Board Members and Company Settings: a company with nobody listed yet.
  handle(companiesApi.listMembers, () => []),
  handle(companiesApi.getCompanySettings, ({ params }) => ({
    company: buildCompany({ id: params.companyId }),
    members: [],
    invitations: [],
  })),
  // Invitations: none to the user (the dashboard), none of the company (Board Members, Company Settings).
  handle(companiesApi.listMyInvitations, () => []),
  handle(companiesApi.listInvitations, () => []),
  // Meetings (the dashboard panel, /meetings, /meetings/:id): none yet; a meeting by id does not exist.
  handle(meetingsApi.upcomingMeetings, () => []),
  // A meeting's reading: nothing opened yet, nobody listed.
  handle(readingApi.meetingReading, () => ({ papers: [], packShare: 0 })),
  handle(readingApi.boardReading, () => []),
  // Action items (the dashboard's My action items, a meeting's list): none yet.
  handle(meetingRecordApi.companyActionItems, () => []),
  handle(meetingRecordApi.meetingActionItems, () => []),
  handle(documentsApi.listDocuments, () => []),
  // Resolutions (the dashboard panel, /resolutions, the quorum in Company Settings): none yet, the default quorum.
  handle(resolutionsApi.listResolutions, () => []),
  handle(resolutionsApi.pendingResolutions, () => []),
  handle(resolutionsApi.getResolution, () => apiError(404, "Not found")),
  handle(resolutionsApi.getQuorum, () => ({ quorumPercent: null, rule: "more than half of the eligible voters" })),
  // The library and the dashboard's recent documents: empty.
  handle(documentsApi.listLibrary, () => []),
  handle(documentsApi.recentDocuments, () => []),
  handle(documentsApi.getDocument, () => apiError(404, "Not found")),
  // Search: nothing found, nothing left unsearched.
  handle(searchApi.search, () => ({ results: [], nextCursor: null, morePagesMatched: false, unsearched: [] })),
  // The dashboard's compliance panels: the three groups with no rule to report, so nothing is due.
  handle(complianceApi.getCompliance, () => complianceGroupNames.map((name) => ({ name, progress: 0, items: [] }))),
];

/** The signed-in session of `user`: the current user's read answers it and the platform-admin check says `isPlatformAdmin`. */
export function signedInHandlers(user: User, { isPlatformAdmin = user.isPlatformAdmin } = {}) {
  return [handle(authApi.currentUser, () => user), handle(authApi.checkPlatformAdmin, () => ({ isPlatformAdmin }))];
}
