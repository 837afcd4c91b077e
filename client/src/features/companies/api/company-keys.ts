/**
 * Query keys of the companies feature. Everything that belongs to one company is keyed under
 * `companyKeys.scope(companyId)`, so switching company can mark exactly those stale (`companyKeys.all()`).
 */
export const companyKeys = {
  /** The root of every company-scoped key (this feature's and other features' alike). */
  all: () => ["company"] as const,
  /** The root of one company's keys; other features build their company-scoped keys on it. */
  scope: (companyId: number | null) => [...companyKeys.all(), companyId] as const,
  /** GET /api/companies: the signed-in user's companies (the app shell refreshes it for platform admins). Not company-scoped. */
  list: () => ["/api/companies"] as const,
  /** GET /api/companies/:id/settings. */
  settings: (companyId: number) => [...companyKeys.scope(companyId), "settings"] as const,
  /** GET /api/companies/:id/members. */
  members: (companyId: number) => [...companyKeys.scope(companyId), "members"] as const,
};
