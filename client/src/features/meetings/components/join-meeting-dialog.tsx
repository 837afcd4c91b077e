import { CalendarPlus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

/** 'Join Meeting' for a meeting whose location is no link: where it takes place, and its calendar file. */
export function JoinMeetingDialog({
  open,
  onOpenChange,
  location,
  calendarFile,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  location: string;
  calendarFile: { url: string; name: string };
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Join Meeting</DialogTitle>
          <DialogDescription>This meeting has no online link. It takes place at: {location}</DialogDescription>
        </DialogHeader>
        <p className="text-sm">Add it to your calendar to have the time, place and agenda at hand.</p>
        <DialogFooter>
          <Button asChild>
            <a href={calendarFile.url} download={calendarFile.name}>
              <CalendarPlus aria-hidden />
              Add to calendar (.ics)
            </a>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
