import { Copy } from "lucide-react";
import { useId, useState } from "react";
import type { AddMemberResult } from "@shared/companies";
import { roleLabel } from "@shared/roles";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { formatLongDate } from "@/lib/format";

export const LINK_NOT_SHOWN_AGAIN_TEXT = "This link will not be shown again: copy it now if you want to send it yourself.";
export const LINK_COPIED_TEXT = "Invitation link copied.";
export const LINK_COPY_FAILED_TEXT = "The link could not be copied: select it and copy it yourself.";

/**
 * An invitation's link, shown to the inviter this once (the server keeps only its digest): for a Quorum with no mail
 * service, or an e-mail that does not arrive. `onDone` hides it.
 */
export function InviteLinkNotice({ result, onDone }: { result: AddMemberResult; onDone?: () => void }) {
  const [copy, setCopy] = useState<"copied" | "failed" | null>(null);
  const linkId = useId();
  const { invitation, inviteUrl } = result;

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(inviteUrl);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  }

  return (
    <section aria-label="Invitation link" className="grid min-w-0 gap-3 rounded-md border border-primary/30 bg-primary/5 p-4 text-sm">
      <p className="break-words">
        <strong>{invitation.email}</strong> is invited as {roleLabel(invitation.role)} until {formatLongDate(invitation.expiresAt)}. They
        join once they accept by the link, which is e-mailed to them when a mail service is set up.
      </p>
      <label htmlFor={linkId} className="sr-only">
        Invitation link
      </label>
      <Input id={linkId} readOnly value={inviteUrl} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
      <p className="font-medium">{LINK_NOT_SHOWN_AGAIN_TEXT}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => void copyLink()}>
          <Copy aria-hidden />
          Copy invitation link
        </Button>
        {onDone && (
          <Button type="button" variant="outline" onClick={onDone}>
            Done
          </Button>
        )}
      </div>
      <p aria-live="polite" className={copy === "failed" ? "text-destructive" : "text-muted-foreground"}>
        {copy === "copied" ? LINK_COPIED_TEXT : copy === "failed" ? LINK_COPY_FAILED_TEXT : ""}
      </p>
    </section>
  );
}
