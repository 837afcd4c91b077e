/** A meeting's badge: confirmed green, cancelled red (whenever it was to be), anything else 'Pending' in yellow; other past meetings 'Completed'. */
export function meetingBadge(
  status: string,
  isPast: boolean,
): { label: string; variant: "success" | "destructive" | "warning" | "secondary" } {
  if (status === "cancelled") return { label: "Cancelled", variant: "destructive" };
  if (isPast) return { label: "Completed", variant: "secondary" };
  if (status === "confirmed") return { label: "Confirmed", variant: "success" };
  return { label: "Pending", variant: "warning" };
}
