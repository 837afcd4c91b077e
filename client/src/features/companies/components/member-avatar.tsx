import type { CompanyMember } from "@shared/companies";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { initials } from "@/lib/format";
import { cn } from "@/lib/utils";

/** A member's profile image, or their initials. */
export function MemberAvatar({
  member,
  className,
}: {
  member: Pick<CompanyMember, "firstName" | "lastName" | "username" | "profileImageUrl">;
  className?: string;
}) {
  return (
    <Avatar className={cn("size-11", className)}>
      {member.profileImageUrl && <AvatarImage src={member.profileImageUrl} alt="" />}
      <AvatarFallback aria-hidden>{initials(member)}</AvatarFallback>
    </Avatar>
  );
}
