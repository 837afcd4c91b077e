import { companyScope } from "@/lib/auth/active-company";

/** Query keys of the signed-in user's own account (not company-scoped, except the calendar feed). */
export const accountKeys = {
  sessions: (userId: number) => ["account", "sessions", userId] as const,
  /** The user's calendar feed address for one company: under that company's scope, so a company switch marks it stale. */
  calendarFeed: (userId: number, companyId: number) => [...companyScope.of(companyId), "calendar-feed", userId] as const,
};
