import { useLocation, useParams, useSearch } from "wouter";
import { NotFoundPage } from "@/app/signed-out-routes";
import { VersionCompare, versionParam } from "@/features/documents/components/version-compare";

/** /documents/:id/compare?from=&to=: what changed in a paper between two versions. */
export function DocumentComparePage() {
  const params = useParams<{ id: string }>();
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const id = /^\d{1,9}$/.test(params.id ?? "") ? Number(params.id) : null;
  if (id == null) return <NotFoundPage />;
  return (
    <VersionCompare
      id={id}
      from={versionParam(search.get("from"))}
      to={versionParam(search.get("to"))}
      onChoose={(from, to) => navigate(`/documents/${id}/compare?from=${from}&to=${to}`, { replace: true })}
    />
  );
}
