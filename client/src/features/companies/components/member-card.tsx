import { Mail } from "lucide-react";
import { displayName } from "@shared/people";
import type { CompanyMember } from "@shared/companies";
import { roleLabel } from "@shared/roles";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { MemberAvatar } from "@/features/companies/components/member-avatar";

/** One person on the Board Members page: avatar, name, e-mail, role label and the other boards they sit on. */
export function MemberCard({ member }: { member: CompanyMember }) {
  const name = displayName(member);
  return (
    <Card className="gap-4 py-5" data-testid="member-card">
      <CardContent className="flex items-start gap-4 px-5">
        <MemberAvatar member={member} />
        <div className="grid min-w-0 flex-1 gap-1.5">
          <h2 className="truncate font-semibold" title={name}>
            {name}
          </h2>
          <a
            href={`mailto:${member.email}`}
            title={member.email}
            className="flex min-w-0 items-center gap-1.5 text-sm text-muted-foreground underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none"
          >
            <Mail className="size-3.5 shrink-0" aria-hidden />
            <span className="truncate">{member.email}</span>
          </a>
          <Badge variant={member.role === "founder" || member.role === "admin" ? "default" : "secondary"}>{roleLabel(member.role)}</Badge>
          {member.otherCompanies.length > 0 && (
            <div className="mt-1 text-sm">
              <p className="text-xs font-medium text-muted-foreground">Also on the board of</p>
              <ul className="mt-1 grid gap-0.5">
                {member.otherCompanies.map((other) => (
                  <li key={other.id} className="break-words">
                    {other.name} <span className="text-muted-foreground">· {roleLabel(other.role)}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
