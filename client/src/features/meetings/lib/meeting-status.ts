/** A meeting's badge: confirmed green, cancelled red, anything else 'Pending' in yellow; past meetings always 'Completed'. */
export function meetingBadge(
  status: string,
  isPast: boolean,
): { label: string; variant: "success" | "destructive" | "warning" | "secondary" } {
  if (isPast) return { label: "Completed", variant: "secondary" };
  if (status === "confirmed") return { label: "Confirmed", variant: "success" };
  if (status === "cancelled") return { label: "Cancelled", variant: "destructive" };
  return { label: "Pending", variant: "warning" };
}
