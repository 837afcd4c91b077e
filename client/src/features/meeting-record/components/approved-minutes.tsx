import { FileDown } from "lucide-react";
import * as documentsApi from "@shared/api/documents";
import type { Minutes } from "@shared/meeting-record";
import { Button } from "@/components/ui/button";
import { apiUrl } from "@/lib/api-client";
import { formatLongDate } from "@/lib/format";

/** The minutes' text as it stands, scrollable and focusable. */
export function MinutesText({ text }: { text: string }) {
  return (
    <div
      className="max-h-[32rem] overflow-y-auto rounded-md border bg-muted/30 p-4 font-mono text-sm leading-relaxed break-words whitespace-pre-wrap"
      tabIndex={0}
      role="document"
      aria-label="Minutes text"
    >
      {text}
    </div>
  );
}

/** Approved minutes: when and how, the text, its fingerprint and, once filed, its PDF. */
export function ApprovedMinutes({ minutes }: { minutes: Minutes }) {
  const how =
    minutes.approvedVia === "chair"
      ? `signed by ${minutes.approvedBy?.name ?? "the chair"} as chair`
      : minutes.approvedVia === "resolution"
        ? "by resolution of the board"
        : "";
  return (
    <div className="grid gap-4">
      <p className="text-sm font-medium">
        Approved{minutes.approvedAt ? ` on ${formatLongDate(minutes.approvedAt)}` : ""}
        {how ? `, ${how}` : ""}.
      </p>
      {minutes.text != null && <MinutesText text={minutes.text} />}
      {minutes.sha256 && (
        <dl className="grid gap-1 text-sm">
          <dt className="text-muted-foreground">SHA-256 of the approved text</dt>
          <dd className="font-mono text-xs break-all">{minutes.sha256}</dd>
        </dl>
      )}
      {minutes.documentId != null && (
        <div>
          <Button asChild variant="outline">
            <a href={apiUrl(documentsApi.downloadDocument, { params: { id: minutes.documentId }, query: {} })} download>
              <FileDown aria-hidden />
              Download minutes (PDF)
            </a>
          </Button>
        </div>
      )}
    </div>
  );
}
