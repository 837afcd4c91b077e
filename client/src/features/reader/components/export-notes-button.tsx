import { FileDown, Loader2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { fetchNotesExport, type NoteExportFormat } from "@/features/reader/api/export-notes";
import { saveFile } from "@/lib/save-file";

const formats: Record<NoteExportFormat, { label: string; extension: string }> = {
  md: { label: "Markdown", extension: "md" },
  pdf: { label: "PDF", extension: "pdf" },
};

/** "Export my notes": the caller's own notes on the meeting's papers, saved as Markdown or as a PDF. */
export function ExportNotesButton({ meetingId }: { meetingId: number }) {
  const [running, setRunning] = useState<NoteExportFormat | null>(null);

  async function exportAs(format: NoteExportFormat) {
    setRunning(format);
    try {
      const file = await fetchNotesExport(meetingId, format);
      saveFile(file.blob, file.fileName ?? `My notes.${formats[format].extension}`);
    } catch (error) {
      toast({
        title: "Your notes could not be exported",
        description: serverMessageOf(error) ?? "Please try again.",
        variant: "destructive",
      });
    } finally {
      setRunning(null);
    }
  }

  return (
    <div role="group" aria-label="Export my notes" className="flex flex-wrap items-center gap-2">
      <span className="text-sm font-medium">Export my notes</span>
      {(Object.keys(formats) as NoteExportFormat[]).map((format) => (
        <Button
          key={format}
          variant="outline"
          size="sm"
          disabled={running !== null}
          aria-busy={running === format}
          aria-label={`Export my notes as ${formats[format].label}`}
          onClick={() => void exportAs(format)}
        >
          {running === format ? <Loader2 className="animate-spin" aria-hidden /> : <FileDown aria-hidden />}
          {formats[format].label}
        </Button>
      ))}
    </div>
  );
}
