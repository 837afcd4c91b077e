import { meetingCategory } from "@shared/meetings";
import { apiJson } from "@/lib/api-client";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

/** A document that can be attached to a resolution. */
export interface AttachableDocument {
  id: number;
  name: string;
}

/**
 * The active company's library files (never meetings), for the New Resolution picker: read from
 * GET /api/documents, a stand-in until the page hands in the documents feature's own library query.
 */
export async function getAttachableDocuments(): Promise<AttachableDocument[]> {
  const rows = await apiJson<{ id: number; name: string; category: string }[]>("GET", "/api/documents");
  return rows.filter((row) => row.category !== meetingCategory).map(({ id, name }) => ({ id, name }));
}

export function useAttachableDocuments({ enabled }: { enabled: boolean }) {
  return useActiveCompanyQuery((companyId) => ({ queryKey: resolutionKeys.attachable(companyId), queryFn: getAttachableDocuments }), { enabled });
}
