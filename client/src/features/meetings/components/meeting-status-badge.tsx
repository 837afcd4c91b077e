import { Badge } from "@/components/ui/badge";
import { meetingBadge } from "@/features/meetings/lib/meeting-status";

export function MeetingStatusBadge({ status, isPast = false }: { status: string; isPast?: boolean }) {
  const { label, variant } = meetingBadge(status, isPast);
  return <Badge variant={variant}>{label}</Badge>;
}
