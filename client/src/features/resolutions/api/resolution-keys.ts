import { companyScope } from "@/lib/auth/active-company";

/** Query keys of the resolutions feature, under the company key root (a company switch marks them stale). */
export const resolutionKeys = {
  all: (companyId: number | null) => [...companyScope.of(companyId), "resolutions"] as const,
  list: (companyId: number | null) => [...resolutionKeys.all(companyId), "list"] as const,
  pending: (companyId: number | null) => [...resolutionKeys.all(companyId), "pending"] as const,
  detail: (companyId: number | null, id: number) => [...resolutionKeys.all(companyId), "detail", id] as const,
  votes: (companyId: number | null, id: number) => [...resolutionKeys.all(companyId), "votes", id] as const,
};
