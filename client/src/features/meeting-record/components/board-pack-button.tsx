import { FileDown, Loader2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { formatFileSize } from "@/lib/format";
import { useBoardPackDownload, type BoardPackProgress } from "@/features/meeting-record/api/board-pack";

export const BOARD_PACK_FAILED = "The board pack could not be downloaded";

function progressText(progress: BoardPackProgress): string {
  if (progress.phase === "receiving") return `Preparing board pack… ${formatFileSize(progress.bytes)}`;
  return "Preparing board pack…";
}

/** 'Download board pack': the meeting's agenda and papers as one PDF, built by the server while the button waits. */
export function BoardPackButton({ meetingId, meetingTitle }: { meetingId: number; meetingTitle: string }) {
  const { progress, download } = useBoardPackDownload(meetingId, meetingTitle);
  const running = progress.phase !== "idle";

  async function onClick() {
    try {
      await download();
    } catch (error) {
      toast({ title: BOARD_PACK_FAILED, description: serverMessageOf(error) ?? "Please try again.", variant: "destructive" });
    }
  }

  return (
    <>
      <Button variant="outline" onClick={() => void onClick()} disabled={running} aria-busy={running}>
        {running ? <Loader2 className="animate-spin" aria-hidden /> : <FileDown aria-hidden />}
        {running ? progressText(progress) : "Download board pack"}
      </Button>
      <span role="status" className="sr-only">
        {running ? "Preparing board pack…" : ""}
      </span>
    </>
  );
}
