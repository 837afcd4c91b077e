import type { DocumentCategory } from "@shared/documents";
import { companyScope } from "@/lib/auth/active-company";

/**
 * Query keys of the documents feature, all company-scoped: the server answers for the active company,
 * so its id is in every key and a company switch marks them stale. Meetings are documents on the wire:
 * their list and detail are these queries too.
 */
export const documentKeys = {
  all: (companyId: number | null) => [...companyScope.of(companyId), "documents"] as const,
  /**
   * GET /api/documents: the active company's documents; with a category, only those (the meetings page's list).
   * The key without one is the start of every such key: invalidating it marks each of them stale.
   */
  list: (companyId: number | null, category?: DocumentCategory) =>
    category === undefined
      ? ([...documentKeys.all(companyId), "list"] as const)
      : ([...documentKeys.all(companyId), "list", category] as const),
  /** GET /api/documents/:id (the server answers only documents of a company the user belongs to). */
  detail: (companyId: number | null, id: number) => [...documentKeys.all(companyId), "detail", id] as const,
  /** A text file's bytes, for its preview. */
  text: (companyId: number | null, id: number) => [...documentKeys.detail(companyId, id), "text"] as const,
  /** GET /api/companies/:companyId/documents: the library (files, never meetings). */
  library: (companyId: number | null) => [...documentKeys.all(companyId), "library"] as const,
  /** GET /api/documents/:id/versions: a paper's history. */
  versions: (companyId: number | null, id: number) => [...documentKeys.detail(companyId, id), "versions"] as const,
  /** GET /api/documents/:id/compare: what changed from one version to another (never changes once computed). */
  comparison: (companyId: number | null, id: number, from: number, to: number) =>
    [...documentKeys.detail(companyId, id), "compare", from, to] as const,
  /** GET /api/companies/:companyId/documents/recent. */
  recent: (companyId: number | null) => [...documentKeys.all(companyId), "recent"] as const,
};
