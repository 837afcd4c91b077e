import { AlertTriangle, CalendarClock } from "lucide-react";
import { useMemo } from "react";
import { complianceReminders, complianceRuleIds, type ComplianceItem } from "@shared/compliance";
import { DashboardPanel } from "@/components/dashboard-panel";
import { Button } from "@/components/ui/button";
import { formatLongDate } from "@/lib/format";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { useCompliance } from "@/features/compliance/api/get-compliance";
import { ComplianceStatusBadge } from "@/features/compliance/components/compliance-status-badge";
import { agmMeetingTitle } from "@/features/compliance/lib/agm";

export interface ComplianceRemindersPanelProps {
  /**
   * Opens the Schedule meeting modal for the AGM with `meetingTitle` prefilled. Without it (a role that may
   * not schedule) the AGM reminder is shown with no 'Schedule AGM' button.
   */
  onScheduleAgm?: (meetingTitle: string) => void;
  className?: string;
}

/** The dashboard's Compliance Reminders: every rule that is overdue or falls due soon, soonest first, with its date. */
export function ComplianceRemindersPanel({ onScheduleAgm, className }: ComplianceRemindersPanelProps) {
  const compliance = useCompliance();
  const now = useNow();
  const reminders = useMemo(() => complianceReminders(compliance.data ?? [], now), [compliance.data, now]);

  return (
    <DashboardPanel
      title="Compliance Reminders"
      query={compliance}
      loading={compliance.isPlaceholderData}
      errorText="The compliance reminders could not be loaded."
      empty={reminders.length === 0}
      emptyText="Nothing is due: every compliance check is on track."
      skeletonRows={2}
      className={className}
    >
      <ul className="grid gap-3">
        {reminders.map((item) => (
          <li
            key={item.id}
            className={cn(
              "grid gap-2 rounded-lg border p-3",
              item.status === "overdue" ? "border-destructive/50 bg-destructive/5" : "border-warning/60 bg-warning/10",
            )}
          >
            {item.id === complianceRuleIds.annualGeneralMeeting ? (
              <AgmReminder item={item} now={now} onSchedule={onScheduleAgm} />
            ) : (
              <Reminder item={item} />
            )}
          </li>
        ))}
      </ul>
    </DashboardPanel>
  );
}

function ReminderHeading({ item, title }: { item: ComplianceItem; title: string }) {
  const Icon = item.status === "overdue" ? AlertTriangle : CalendarClock;
  return (
    <div className="flex flex-wrap items-start justify-between gap-2">
      <h3 className="flex min-w-0 items-start gap-2 font-medium break-words">
        <Icon className={cn("mt-0.5 size-4 shrink-0", item.status === "overdue" ? "text-destructive" : "text-foreground")} aria-hidden />
        {title}
      </h3>
      <ComplianceStatusBadge status={item.status} />
    </div>
  );
}

function Reminder({ item }: { item: ComplianceItem }) {
  return (
    <>
      <ReminderHeading item={item} title={item.title} />
      {item.description && <p className="text-sm text-muted-foreground">{item.description}</p>}
      {item.dueDate && (
        <p className="text-sm font-medium">
          {item.status === "overdue" ? "Was due" : "Due"} {formatLongDate(item.dueDate)}
        </p>
      )}
    </>
  );
}

/** The AGM keeps its own shape: 'Annual General Meeting Due', the date it is due before, and 'Schedule AGM'. */
function AgmReminder({ item, now, onSchedule }: { item: ComplianceItem; now: Date; onSchedule?: (meetingTitle: string) => void }) {
  const due = item.dueDate ? ` before ${formatLongDate(item.dueDate)}` : "";
  return (
    <>
      <ReminderHeading item={item} title="Annual General Meeting Due" />
      <p className="text-sm">
        {item.status === "overdue" ? `The Annual General Meeting was due${due}.` : `The Annual General Meeting is due${due}.`}
      </p>
      {onSchedule && (
        <div>
          <Button size="sm" onClick={() => onSchedule(agmMeetingTitle(item.dueDate, now))}>
            Schedule AGM
          </Button>
        </div>
      )}
    </>
  );
}
