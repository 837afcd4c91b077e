import { CalendarPlus, FilePlus2, Plus, Upload } from "lucide-react";
import { useQueries } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { Link } from "wouter";
import { can } from "@shared/permissions";
import { dashboardFirstReads } from "@/app/dashboard-reads";
import { DashboardPanel } from "@/components/dashboard-panel";
import { PageTitle } from "@/components/page-title";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/utils";
import { useActiveCompany } from "@/lib/auth/active-company";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { ComplianceHealthPanel } from "@/features/compliance/components/compliance-health-panel";
import { ComplianceRemindersPanel } from "@/features/compliance/components/compliance-reminders-panel";
import { MyInvitationsPanel } from "@/features/companies/components/my-invitations-panel";
import { MyActionItemsPanel } from "@/features/meeting-record/components/my-action-items-panel";
import { UpcomingMeetingsPanel } from "@/features/meetings/components/upcoming-meetings-panel";
import { PendingResolutionsPanel } from "@/features/resolutions/components/pending-resolutions-panel";
import { RecentDocumentsPanel } from "@/features/documents/components/recent-documents-panel";

/**
 * The Schedule meeting modal (its form, validation and member picker) is loaded when first opened: it is not
 * part of what the dashboard shows, and leaving it out takes a third of the page's code off the first load.
 */
const ScheduleMeeting = lazy(() => import("@/app/schedule-meeting").then((module) => ({ default: module.ScheduleMeeting })));

/**
 * What the Schedule meeting modal opens as: a new board meeting, or the AGM with its title prefilled.
 * `used`: it has been opened, so it stays mounted (it closes with its animation and keeps its draft).
 */
type Scheduling = { open: boolean; used: boolean; agmTitle?: string };

/**
 * / and /dashboard. The panels come in order of what a director has to act on: the compliance reminders and
 * the votes waiting for them, then the meetings ahead and the latest board papers (what a director reads on
 * a phone), the caller's own action items, then the actions that start something new (mostly desk work), and
 * last the compliance overview, whose urgent parts the reminders already show. A phone shows them in that order
 * in one column; a wide screen reads the same order left to right, two list panels to a row, then My action
 * items, Quick Actions and Compliance Health across the width, so the reading (and tab) order never differs
 * from what the eye sees.
 */
export function DashboardPage() {
  const { user } = useCurrentUser();
  const [scheduling, setScheduling] = useState<Scheduling>({ open: false, used: false });
  // Observers may not schedule (the server refuses them), so they are offered no scheduling action.
  const canSchedule = can(user?.role, "scheduleMeeting");
  const scheduleNewMeeting = () => setScheduling({ open: true, used: true });

  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-2">
      <PageTitle className="lg:col-span-2">Dashboard</PageTitle>
      {/* Only when someone has invited the user; it is not among the reads the first screen waits for. */}
      {user && <MyInvitationsPanel userId={user.id} className="lg:col-span-2" />}
      {/*
        Until the first screen's reads have all answered, one placeholder stands for the panels, and the panels
        (mounted, so their reads are on their way) are not displayed. Then they appear all at once: a panel that
        grew or shrank in place as its rows arrived would push the panels under it down the screen while the
        director is reading or about to tap them.
      */}
      <FirstScreenGate>
        <ComplianceRemindersPanel
          onScheduleAgm={canSchedule ? (agmTitle) => setScheduling({ open: true, used: true, agmTitle }) : undefined}
        />
        <PendingResolutionsPanel />
        <UpcomingMeetingsPanel />
        <RecentDocumentsPanel />
        {/* Across the width, below the first screen's panels: it is not among the reads the gate waits for. */}
        <MyActionItemsPanel className="lg:col-span-2" />
        <DashboardPanel
          title="Quick Actions"
          className="lg:col-span-2"
          action={
            canSchedule && (
              <Button onClick={scheduleNewMeeting}>
                <Plus aria-hidden />
                New Meeting
              </Button>
            )
          }
        >
          {/* Side by side on a wide screen, one equal column per action the role holds (an observer has two). */}
          <ul className="grid gap-3 lg:auto-cols-fr lg:grid-flow-col">
            {canSchedule && (
              <QuickAction icon={<CalendarPlus aria-hidden />} title="Schedule Meeting" text="Create a new board meeting with agenda">
                <Button variant="link" className="h-auto p-0" onClick={scheduleNewMeeting}>
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
        </DashboardPanel>
        <ComplianceHealthPanel className="lg:col-span-2" />
      </FirstScreenGate>
      {canSchedule && scheduling.used && (
        <Suspense fallback={null}>
          <ScheduleMeeting
            open={scheduling.open}
            onOpenChange={(open) => setScheduling((current) => ({ ...current, open }))}
            title={scheduling.agmTitle ? "Schedule Annual General Meeting" : undefined}
            initialValues={scheduling.agmTitle ? { title: scheduling.agmTitle } : undefined}
          />
        </Suspense>
      )}
    </div>
  );
}

/**
 * The placeholder while the first screen's reads are on their way, then `children` (the panels). Its own
 * component, given the panels made by the page, so that each read answering re-renders this gate and not every
 * panel with it: on a first load those re-renders were long tasks on a phone's main thread.
 */
function FirstScreenGate({ children }: { children: ReactNode }) {
  const firstScreenLoading = useFirstScreenLoading();
  return (
    <>
      {firstScreenLoading && <DashboardPlaceholder />}
      <div hidden={firstScreenLoading} className={cn(firstScreenLoading ? "hidden" : "contents")}>
        {children}
      </div>
    </>
  );
}

/** Whether a read of the panels a phone shows first is still on its way (not merely waiting for a company). */
function useFirstScreenLoading(): boolean {
  const companyId = useActiveCompany();
  // Without a company the reads are built for id 0, which names none, and wait (as each panel's own do).
  const reads = useQueries({ queries: dashboardFirstReads(companyId ?? 0).map((read) => ({ ...read, enabled: companyId !== null })) });
  // The compliance read shows placeholder groups meanwhile: that is still loading.
  return reads.some((read) => read.isLoading || (read.isPlaceholderData && read.isFetching));
}

/** The list panels' outline while their reads are on their way: a card each, with placeholder rows. */
function DashboardPlaceholder() {
  return (
    <div role="status" aria-label="Loading dashboard" className="grid min-w-0 gap-6 lg:col-span-2 lg:grid-cols-2">
      {[2, 3, 3, 3].map((rows, card) => (
        <Card key={card} aria-hidden className="min-w-0 gap-4 py-5 sm:gap-6 sm:py-6">
          <CardHeader className="px-4 sm:px-6">
            <Skeleton className="h-5 w-44" />
          </CardHeader>
          <CardContent className="grid gap-3 px-4 sm:px-6">
            {Array.from({ length: rows }, (_, row) => (
              <Skeleton key={row} className="h-16 w-full" />
            ))}
          </CardContent>
        </Card>
      ))}
    </div>
  );
}

function QuickAction({ icon, title, text, children }: { icon: ReactNode; title: string; text: string; children: ReactNode }) {
  return (
    <li className="flex min-w-0 gap-3 rounded-lg border p-3">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary [&_svg]:size-5">{icon}</span>
      <div className="grid min-w-0 content-start gap-1">
        <h3 className="font-medium">{title}</h3>
        <p className="text-sm text-muted-foreground">{text}</p>
        <div>{children}</div>
      </div>
    </li>
  );
}
