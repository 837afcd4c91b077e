import { complianceStatusLabel } from "@shared/compliance";
import { Badge } from "@/components/ui/badge";

const variantByStatus = {
  completed: "success",
  pending: "warning",
  overdue: "destructive",
  upcoming: "secondary",
} as const;

/**
 * The theme's destructive red is a button colour: in dark mode white text on it is too faint for a small
 * label, so an Overdue badge darkens there.
 */
const overdueInDarkMode = "dark:border-red-800 dark:bg-red-950 dark:text-red-200";

/** A rule's status: Completed, In Progress, Overdue, Upcoming, or Unknown for a status this client does not know. */
export function ComplianceStatusBadge({ status }: { status: string }) {
  const variant = Object.hasOwn(variantByStatus, status) ? variantByStatus[status as keyof typeof variantByStatus] : "outline";
  return (
    <Badge variant={variant} data-status={status} className={status === "overdue" ? overdueInDarkMode : undefined}>
      {complianceStatusLabel(status)}
    </Badge>
  );
}
