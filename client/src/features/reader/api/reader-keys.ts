import { companyScope } from "@/lib/auth/active-company";

/** Query keys of the reader, company-scoped like every read of a company's papers. */
export const readerKeys = {
  all: (companyId: number | null) => [...companyScope.of(companyId), "reader"] as const,
  /** GET /api/documents/:id/notes: the caller's own notes on one paper. */
  notes: (companyId: number | null, documentId: number) => [...readerKeys.all(companyId), "notes", documentId] as const,
};
