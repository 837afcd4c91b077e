import { CalendarPlus, FilePlus2, Plus, Upload } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Link } from "wouter";
import { can } from "@shared/permissions";
import { ScheduleMeeting } from "@/app/schedule-meeting";
import { PageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { UpcomingMeetingsPanel } from "@/features/meetings/components/upcoming-meetings-panel";
import { PendingResolutionsPanel } from "@/features/resolutions/components/pending-resolutions-panel";
import { RecentDocumentsPanel } from "@/features/documents/components/recent-documents-panel";

/** / and /dashboard: Quick Actions, Upcoming Meetings and Pending Resolutions (the other panels arrive with their issues). */
export function DashboardPage() {
  const { user } = useCurrentUser();
  const [scheduling, setScheduling] = useState(false);
  // Observers may not schedule (the server refuses them), so they are offered no scheduling action.
  const canSchedule = can(user?.role, "scheduleMeeting");

  return (
    <div className="grid gap-6">
      <PageTitle>Dashboard</PageTitle>
      <Card aria-labelledby="quick-actions-heading">
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
          <CardTitle id="quick-actions-heading" role="heading" aria-level={2} className="text-lg">
            Quick Actions
          </CardTitle>
          {canSchedule && (
            <Button onClick={() => setScheduling(true)}>
              <Plus aria-hidden />
              New Meeting
            </Button>
          )}
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {canSchedule && (
              <QuickAction icon={<CalendarPlus aria-hidden />} title="Schedule Meeting" text="Create a new board meeting with agenda">
                <Button variant="link" className="h-auto p-0" onClick={() => setScheduling(true)}>
                  Create meeting
                </Button>
              </QuickAction>
            )}
            <QuickAction icon={<FilePlus2 aria-hidden />} title="Create Resolution" text="Draft a new resolution for board approval">
              <Button asChild variant="link" className="h-auto p-0">
                <Link href="/resolutions?new=1">Create resolution</Link>
              </Button>
            </QuickAction>
            <QuickAction icon={<Upload aria-hidden />} title="Upload Document" text="Add files to your board's document repository">
              <Button asChild variant="link" className="h-auto p-0">
                <Link href="/documents?upload=1">Upload document</Link>
              </Button>
            </QuickAction>
          </ul>
        </CardContent>
      </Card>
      <UpcomingMeetingsPanel />
      <PendingResolutionsPanel />
      <RecentDocumentsPanel />
      {canSchedule && <ScheduleMeeting open={scheduling} onOpenChange={setScheduling} />}
    </div>
  );
}

function QuickAction({ icon, title, text, children }: { icon: ReactNode; title: string; text: string; children: ReactNode }) {
  return (
    <li className="grid content-start gap-2 rounded-lg border p-4">
      <span className="flex size-9 items-center justify-center rounded-md bg-primary/10 text-primary [&_svg]:size-5">{icon}</span>
      <h3 className="font-medium">{title}</h3>
      <p className="text-sm text-muted-foreground">{text}</p>
      <div>{children}</div>
    </li>
  );
}
