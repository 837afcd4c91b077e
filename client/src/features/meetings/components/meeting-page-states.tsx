import { ArrowLeft } from "lucide-react";
import { Link } from "wouter";
import { PageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";

export function BackToMeetings() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 w-fit">
      <Link href="/meetings">
        <ArrowLeft aria-hidden />
        Back to Meetings
      </Link>
    </Button>
  );
}

export function MeetingDetailLoading() {
  return (
    <div className="grid gap-6" role="status" aria-label="Loading meeting">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-9 w-2/3" />
      <Skeleton className="h-48 w-full" />
    </div>
  );
}

/** A missing id, a meeting of another company, or a document that is not a meeting. */
export function MeetingNotFound() {
  return (
    <div className="mx-auto grid max-w-md justify-items-center gap-4 py-16 text-center">
      <PageTitle>Meeting not found</PageTitle>
      <p className="text-muted-foreground">The meeting you&apos;re looking for doesn&apos;t exist.</p>
      <Button asChild>
        <Link href="/meetings">
          <ArrowLeft aria-hidden />
          Back to Meetings
        </Link>
      </Button>
    </div>
  );
}

/** Anything but a 404: the meeting may well exist, so say it could not be loaded. */
export function MeetingLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="mx-auto grid max-w-md justify-items-center gap-4 py-16 text-center">
      <PageTitle>Meeting unavailable</PageTitle>
      <p className="text-muted-foreground">The meeting could not be loaded. Please try again.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={onRetry}>Try again</Button>
        <BackToMeetings />
      </div>
    </div>
  );
}
