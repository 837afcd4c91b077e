import { PageTitle } from "@/components/page-title";

/** /resolutions and /resolutions/:id (which opens that resolution here). Arrives with the resolutions issue. */
export function ResolutionsPage() {
  return <PageTitle>Resolutions</PageTitle>;
}
