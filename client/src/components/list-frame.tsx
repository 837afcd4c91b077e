import type { LucideIcon } from "lucide-react";
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { PageHeader } from "@/components/page-header";
import { SearchInput } from "@/components/search-input";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

/** A page's main action as a button: its words, its icon and what a click does. */
export interface ListScreenAction {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
}

export interface ListScreenSearch {
  /** Names the field for screen readers ("Search meetings"). */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}

/**
 * The frame of a page that lists one kind of thing (documents, members): the title with the main action, the search
 * (with any `filters` beside it), then the `children`. ListScreen adds tabs to it; a page without tabs takes the frame
 * alone and leaves Radix's tabs out of its first load.
 */
export function ListFrame({
  title,
  description,
  action,
  search,
  filters,
  children,
}: {
  title: string;
  description?: string;
  /** A button made from `ListScreenAction`, or an element that brings its own (a dialog's trigger); none for those not allowed. */
  action?: ListScreenAction | ReactElement | false | null;
  search?: ListScreenSearch;
  /** Controls shown beside the search on a wide screen and under it on a narrow one. */
  filters?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="grid gap-6">
      <PageHeader
        title={title}
        description={description}
        actions={isValidElement(action) ? action : action && <ActionButton {...action} />}
      />
      {search && (filters ? <SearchWithFilters search={search} filters={filters} /> : <ListSearchInput search={search} />)}
      {children}
    </div>
  );
}

function ActionButton({ label, icon: Icon, onClick }: ListScreenAction) {
  return (
    <Button onClick={onClick}>
      <Icon aria-hidden />
      {label}
    </Button>
  );
}

function ListSearchInput({ search, className }: { search: ListScreenSearch; className?: string }) {
  return (
    <SearchInput
      label={search.label}
      placeholder={search.placeholder}
      value={search.value}
      onChange={(event) => search.onChange(event.target.value)}
      className={className}
    />
  );
}

function SearchWithFilters({ search, filters }: { search: ListScreenSearch; filters: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <ListSearchInput search={search} className="w-full sm:flex-1" />
      <div className="flex items-center gap-2">{filters}</div>
    </div>
  );
}

/** What a list screen reads of its query. */
export interface ListQuery<T> {
  data: readonly T[] | undefined;
  isLoading: boolean;
  isError: boolean;
}

export interface EmptyListProps {
  icon: LucideIcon;
  /** A short first line in bold ("No documents found"), when the message needs one. */
  title?: string;
  message: string;
}

/**
 * The states of a listed query: `loading` while it loads, then the one error presentation with the
 * screen's `error` sentence, then the one empty presentation when nothing is shown (unless `empty` is
 * left out and `children` shows the empty list its own way), else `children` with the items.
 */
export function ListQueryState<T>({
  query,
  items = query.data ?? [],
  loading,
  error,
  empty,
  children,
}: {
  query: ListQuery<T>;
  /** What is shown of the loaded list (searched, filtered, one tab's share); all of it by default. */
  items?: readonly T[];
  loading: ReactNode;
  error: ReactNode;
  empty?: EmptyListProps;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (query.isLoading) return loading;
  if (query.isError) return <ListError>{error}</ListError>;
  if (empty && items.length === 0) return <EmptyList {...empty} />;
  return children(items);
}

/** Placeholders in the shape of the list while it loads; `label` names them for screen readers ("Loading meetings"). */
export function ListSkeleton({
  label,
  count = 3,
  className = "grid gap-3",
  itemClassName,
}: {
  label: string;
  count?: number;
  className?: string;
  itemClassName: string;
}) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className={className}>
      {Array.from({ length: count }, (_, index) => (
        <Skeleton key={index} className={itemClassName} />
      ))}
    </div>
  );
}

function ListError({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg border border-destructive/40 p-4 text-sm text-destructive">
      {children}
    </p>
  );
}

function EmptyList({ icon: Icon, title, message }: EmptyListProps) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-10 text-center">
      <Icon className="size-10 text-muted-foreground" aria-hidden />
      {title && <p className="font-medium">{title}</p>}
      <p className="text-sm text-muted-foreground">{message}</p>
    </div>
  );
}
