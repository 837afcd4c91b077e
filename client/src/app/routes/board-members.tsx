import { useState } from "react";
import { can } from "@shared/permissions";
import { PageHeader } from "@/components/page-header";
import { SearchInput } from "@/components/search-input";
import { Skeleton } from "@/components/ui/skeleton";
import { useActiveCompany } from "@/lib/auth/active-company";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useMembers } from "@/features/companies/api/get-members";
import { AddMemberDialog } from "@/features/companies/components/add-member-dialog";
import { MemberCard } from "@/features/companies/components/member-card";
import { filterMembers } from "@/features/companies/filter-members";

/** /board-members: the active company's members, searchable; founders and admins can add one. */
export function BoardMembersPage() {
  const { user } = useCurrentUser();
  const companyId = useActiveCompany();
  const members = useMembers();
  const [query, setQuery] = useState("");
  const shown = filterMembers(members.data ?? [], query);

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Board Members"
        description="The people on your board and the roles they hold."
        actions={
          companyId != null && can(user?.role, "manageMembers") && <AddMemberDialog companyId={companyId} actorRole={user?.role ?? null} />
        }
      />

      <SearchInput
        label="Search members"
        placeholder="Search members..."
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />

      {members.isLoading ? (
        <div className="grid gap-4 sm:grid-cols-2 2xl:grid-cols-3" aria-busy="true" aria-label="Loading members">
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} className="h-32 rounded-xl" />
          ))}
        </div>
      ) : members.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the board members. Please reload the page.
        </p>
      ) : shown.length === 0 ? (
        <p className="rounded-xl border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
          {query.trim() ? "No members match your search." : "No board members yet."}
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 2xl:grid-cols-3" aria-label="Members">
          {shown.map((member) => (
            <li key={member.id} className="min-w-0">
              <MemberCard member={member} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
