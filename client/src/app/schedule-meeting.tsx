import { useMembers } from "@/features/companies/api/get-members";
import { useCreateDocument } from "@/features/documents/api/create-document";
import { ScheduleMeetingDialog, type ScheduleMeetingDialogProps } from "@/features/meetings/components/schedule-meeting-dialog";

/**
 * The Schedule meeting modal as the pages offer it, composed here from three features: the modal itself
 * (meetings), the members to invite (companies; asked for once the modal opens) and the call that creates
 * the meeting's document (documents).
 */
export function ScheduleMeeting(props: Omit<ScheduleMeetingDialogProps, "members" | "createDocument">) {
  const members = useMembers({ enabled: props.open });
  const createDocument = useCreateDocument();
  return <ScheduleMeetingDialog {...props} members={members} createDocument={createDocument.mutateAsync} />;
}
