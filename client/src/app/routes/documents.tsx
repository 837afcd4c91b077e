import { PageTitle } from "@/components/page-title";

/** /documents. The library arrives with the documents issue. */
export function DocumentsPage() {
  return <PageTitle>Documents</PageTitle>;
}
