// What a resolution's status is and which tab it belongs to, without validation. Kept free of zod: the meeting page's
// agenda asks each resolution's tab on its first render, and must not evaluate the schema library for it.

/** `referred`: a written resolution on which enough directors asked for a meeting; it goes to the next meeting's agenda. */
export const resolutionStatuses = ["pending", "approved", "rejected", "referred"] as const;
export type ResolutionStatus = (typeof resolutionStatuses)[number];

/**
 * The tab a resolution belongs to, against `now`: Pending = pending and the deadline not passed;
 * Completed = approved or rejected; Expired = pending with the deadline passed.
 */
export type ResolutionTab = "pending" | "completed" | "expired";
export function resolutionTab(resolution: { status: ResolutionStatus; deadline: string }, now: Date): ResolutionTab {
  if (resolution.status !== "pending") return "completed";
  return new Date(resolution.deadline).getTime() > now.getTime() ? "pending" : "expired";
}
