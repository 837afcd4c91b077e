import { Users } from "lucide-react";
import { useState } from "react";
import { can } from "@shared/permissions";
import { ListFrame, ListQueryState, ListSkeleton } from "@/components/list-frame";
import { useActiveCompany } from "@/lib/auth/active-company";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useMembers } from "@/features/companies/api/get-members";
import { AddMemberButton } from "@/features/companies/components/add-member-button";
import { MemberCard } from "@/features/companies/components/member-card";
import { PendingInvitations } from "@/features/companies/components/pending-invitations";
import { filterMembers } from "@/features/companies/filter-members";

const membersGrid = "grid gap-4 sm:grid-cols-2 2xl:grid-cols-3";

/** /board-members: the active company's members, searchable; founders and admins can invite one and see the invitations. */
export function BoardMembersPage() {
  const { user } = useCurrentUser();
  const companyId = useActiveCompany();
  const members = useMembers();
  const [query, setQuery] = useState("");
  const manages = companyId != null && can(user?.role, "manageMembers");

  return (
    <div className="grid min-w-0 gap-8">
      <ListFrame
        title="Board Members"
        description="The people on your board and the roles they hold."
        action={manages && <AddMemberButton companyId={companyId} actorRole={user?.role ?? null} />}
        search={{ label: "Search members", placeholder: "Search members...", value: query, onChange: setQuery }}
      >
        <ListQueryState
          query={members}
          items={filterMembers(members.data ?? [], query)}
          loading={<ListSkeleton label="Loading members" className={membersGrid} itemClassName="h-32 rounded-xl" />}
          error="Could not load the board members. Please reload the page."
          empty={{ icon: Users, message: query.trim() ? "No members match your search." : "No board members yet." }}
        >
          {(shown) => (
            <ul className={membersGrid} aria-label="Members">
              {shown.map((member) => (
                <li key={member.id} className="min-w-0">
                  <MemberCard member={member} />
                </li>
              ))}
            </ul>
          )}
        </ListQueryState>
      </ListFrame>
      {manages && <PendingInvitations companyId={companyId} />}
    </div>
  );
}
