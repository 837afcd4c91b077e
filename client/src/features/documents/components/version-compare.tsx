import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { maxVersion } from "@shared/paper-versions";
import { LoadError } from "@/components/load-error";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/api-client";
import { useDocument } from "@/features/documents/api/get-document";
import { useComparison, useVersions } from "@/features/documents/api/versions";
import { ComparisonView } from "@/features/documents/components/comparison-view";

/** A version number from the address, or null. */
export function versionParam(value: string | null): number | null {
  if (!value || !/^\d{1,5}$/.test(value)) return null;
  const version = Number(value);
  return version >= 1 && version <= maxVersion ? version : null;
}

const selectClassName =
  "h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:w-40";

/**
 * /documents/:id/compare?from=&to=: what changed in a paper between two of its versions (by default the one before
 * the latest and the latest), with a picker for each.
 */
export function VersionCompare({
  id,
  from: askedFrom,
  to: askedTo,
  onChoose,
}: {
  id: number;
  from: number | null;
  to: number | null;
  /** Another pair chosen: the address follows. */
  onChoose: (from: number, to: number) => void;
}) {
  const document = useDocument(id);
  const versions = useVersions(id);
  const latest = document.data?.version ?? null;
  const to = askedTo ?? latest;
  const from = askedFrom ?? (to != null && to > 1 ? to - 1 : null);
  const comparison = useComparison(id, from, to);

  if (document.isError) {
    const missing = document.error instanceof ApiError && document.error.status === 404;
    return (
      <CompareShell title="What changed">
        {missing ? (
          <p className="text-sm">This paper does not exist, or is not yours to see.</p>
        ) : (
          <LoadError message="The paper could not be loaded." onRetry={() => void document.refetch()} />
        )}
      </CompareShell>
    );
  }
  if (document.isPending) return <CompareLoading label="Loading the paper" />;

  const numbers = (versions.data ?? []).map((version) => version.version);
  const choices = numbers.length > 0 ? numbers : Array.from({ length: document.data.version }, (_, index) => document.data.version - index);

  let body;
  if (document.data.version < 2) {
    body = <p className="text-sm text-muted-foreground">This paper has only one version: nothing to compare yet.</p>;
  } else if (from == null || to == null || from === to) {
    body = <p className="text-sm text-muted-foreground">Choose two different versions to compare.</p>;
  } else if (comparison.isPending) {
    body = <CompareLoading label="Comparing versions" inline />;
  } else if (comparison.isError) {
    const status = comparison.error instanceof ApiError ? comparison.error.status : 0;
    body = (
      <LoadError
        message={
          status === 404
            ? "This paper has no such version."
            : status === 503
              ? "The versions' text is still being read. Try again in a moment."
              : "The comparison could not be loaded."
        }
        onRetry={() => void comparison.refetch()}
      />
    );
  } else {
    body = <ComparisonView comparison={comparison.data} />;
  }

  return (
    <CompareShell title={`What changed: ${document.data.name}`}>
      {document.data.version >= 2 && (
        <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Versions to compare">
          <VersionPicker label="From version" value={from} choices={choices} onChange={(value) => onChoose(value, to ?? value)} />
          <VersionPicker label="To version" value={to} choices={choices} onChange={(value) => onChoose(from ?? value, value)} />
        </div>
      )}
      <div aria-live="polite">{body}</div>
    </CompareShell>
  );
}

function VersionPicker({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: number | null;
  choices: readonly number[];
  onChange: (version: number) => void;
}) {
  const id = `compare-${label.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <div className="grid w-full gap-1 sm:w-auto">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className={selectClassName} value={value ?? ""} onChange={(event) => onChange(Number(event.target.value))}>
        {value == null && <option value="">Choose</option>}
        {choices.map((version) => (
          <option key={version} value={version}>
            Version {version}
          </option>
        ))}
      </select>
    </div>
  );
}

function CompareShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-6">
      <Button asChild variant="ghost" size="sm" className="-ml-3 w-fit">
        <Link href="/documents">
          <ArrowLeft aria-hidden />
          Back to Documents
        </Link>
      </Button>
      <PageHeader title={title} description="Pages and lines added, removed or changed between two versions." />
      <Card>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
    </div>
  );
}

function CompareLoading({ label, inline = false }: { label: string; inline?: boolean }) {
  return (
    <div className="grid gap-3" role="status" aria-label={label}>
      {!inline && <Skeleton className="h-9 w-2/3" />}
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}
