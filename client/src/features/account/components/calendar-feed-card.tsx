import { Copy, RefreshCw } from "lucide-react";
import { useId, useRef, useState } from "react";
import { LoadError } from "@/components/load-error";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { useCalendarFeed } from "@/features/account/api/get-calendar-feed";
import { useRotateCalendarFeed } from "@/features/account/api/rotate-calendar-feed";
import { SettingsCard } from "@/features/account/components/settings-card";

export const CALENDAR_FEED_LOAD_FAILED_TEXT = "Your calendar link could not be loaded.";
export const CALENDAR_FEED_RESET_FAILED_TEXT = "Failed to reset the calendar link. Please try again.";

/**
 * Settings → Notifications: the private address a calendar app subscribes to for the active company's
 * meetings and compliance due dates, with a copy button and a reset that revokes every earlier address.
 */
export function CalendarFeedCard({ userId }: { userId: number }) {
  const companyId = useActiveCompany();
  return (
    <SettingsCard
      title="Calendar feed"
      description="Google Calendar, Outlook or Apple Calendar can subscribe to your board's meetings and compliance due dates at this private address."
      contentClassName="grid gap-4"
    >
      {companyId === null ? (
        <p className="text-sm text-muted-foreground">Join or create a company to get a calendar feed for its meetings and due dates.</p>
      ) : (
        <FeedAddress userId={userId} companyId={companyId} />
      )}
    </SettingsCard>
  );
}

function FeedAddress({ userId, companyId }: { userId: number; companyId: number }) {
  const feed = useCalendarFeed(userId);
  const rotate = useRotateCalendarFeed(userId);
  const [confirming, setConfirming] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();

  if (feed.isPending) {
    return (
      <div role="status" aria-label="Loading calendar link" className="grid gap-2">
        <Skeleton className="h-4 w-48" />
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-56" />
      </div>
    );
  }
  if (feed.isError) {
    return <LoadError message={CALENDAR_FEED_LOAD_FAILED_TEXT} onRetry={() => void feed.refetch()} />;
  }

  async function onCopy() {
    const url = feed.data?.url ?? "";
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(url);
      toast({ title: "Link copied", description: 'Paste it into your calendar app\'s "subscribe" or "add from URL" option.' });
    } catch {
      // Without a clipboard (an insecure page, a refused permission) the text is selected for the user to copy.
      inputRef.current?.focus();
      inputRef.current?.select();
      toast({ title: "Link selected", description: "Copying is not available here: the link is selected, copy it with your keyboard." });
    }
  }

  async function onReset() {
    try {
      await rotate.mutateAsync(companyId);
      setConfirming(false);
      toast({ title: "Calendar link reset", description: "Use the new link in your calendar apps; the old one no longer works." });
    } catch (error) {
      setConfirming(false);
      toast({ title: "Error", description: serverMessageOf(error) ?? CALENDAR_FEED_RESET_FAILED_TEXT, variant: "destructive" });
    }
  }

  return (
    <>
      <div className="grid gap-2">
        <Label htmlFor={inputId}>Calendar feed address</Label>
        <Input
          ref={inputRef}
          id={inputId}
          readOnly
          value={feed.data.url}
          aria-describedby={hintId}
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs md:text-xs"
          spellCheck={false}
        />
        <p id={hintId} className="text-xs text-muted-foreground">
          Anyone with this link can see the calendar. Keep it private; reset it if it has been shared.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => void onCopy()}>
          <Copy aria-hidden />
          Copy link
        </Button>
        <Button type="button" variant="outline" onClick={() => setConfirming(true)} disabled={rotate.isPending}>
          <RefreshCw aria-hidden />
          Reset link
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Reset the calendar link?"
        description="You get a new link. Calendars subscribed with the old link stop updating until they subscribe again with the new one. This also applies to the links of your other companies."
        confirmLabel="Reset link"
        pendingLabel="Resetting..."
        pending={rotate.isPending}
        onConfirm={() => void onReset()}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
