import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Avatar, AvatarFallback } from "@/components/ui/avatar";
import { initials } from "@/lib/format";
import { byId, memberName, type MeetingSources } from "@/features/meetings/lib/meeting-sources";

/** Who is invited, by name (the company's members; someone who has left the board shows as a former member). */
export function MeetingParticipants({ participants, members }: { participants: readonly string[]; members: MeetingSources["members"] }) {
  const directory = byId(members.data);
  const ids = participants.map(Number).filter((id) => Number.isInteger(id));
  return (
    <Card aria-labelledby="meeting-participants-title" role="region">
      <CardHeader>
        <h2 id="meeting-participants-title" className="text-lg leading-tight font-semibold">
          Participants
        </h2>
      </CardHeader>
      <CardContent>
        {ids.length === 0 ? (
          <p className="text-sm text-muted-foreground">No participants were invited.</p>
        ) : members.isPending ? (
          <div className="flex flex-wrap gap-2" role="status" aria-label="Loading participants">
            {ids.map((id) => (
              <Skeleton key={id} className="h-9 w-36" />
            ))}
          </div>
        ) : members.isError ? (
          <p className="text-sm text-destructive">The participants' names could not be loaded.</p>
        ) : (
          <ul className="flex flex-wrap gap-2">
            {ids.map((id) => {
              const name = memberName(directory, id);
              return (
                <li key={id} className="flex max-w-full min-w-0 items-center gap-2 rounded-full border bg-muted/40 py-1 pr-3 pl-1 text-sm">
                  <Avatar className="size-7" aria-hidden>
                    <AvatarFallback className="text-xs">{initials(name)}</AvatarFallback>
                  </Avatar>
                  <span className="min-w-0 break-words">{name}</span>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
