// How the resolutions list shows a resolution: its badge, search and summary. Kept free of zod, so the list paints
// without evaluating the schemas the New Resolution form validates with.
import type { Resolution, ResolutionStatus, ResolutionTab } from "@shared/resolutions";

/** Search on the title or the description, case-insensitive. */
export function matchesResolutionSearch(resolution: Pick<Resolution, "title" | "description">, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return resolution.title.toLowerCase().includes(needle) || resolution.description.toLowerCase().includes(needle);
}

/** The badge of a resolution on its tab. */
export function resolutionBadge(
  resolution: Pick<Resolution, "status">,
  tab: ResolutionTab,
): { label: string; variant: "success" | "destructive" | "secondary" | "warning" } {
  if (resolution.status === "approved") return { label: "Approved", variant: "success" };
  if (resolution.status === "rejected") return { label: "Rejected", variant: "destructive" };
  if (resolution.status === "referred") return { label: "Referred to a meeting", variant: "secondary" };
  if (tab === "expired") return { label: "Expired", variant: "secondary" };
  return { label: "Pending", variant: "warning" };
}

/** A decided written resolution's heading: how it ended, as its explanation starts. */
export function writtenStatusLabel(status: ResolutionStatus, explanation: string | null): string {
  if (status === "approved") return "Passed";
  if (status === "referred") return "Referred to a meeting";
  if (status === "rejected") return explanation?.startsWith("Lapsed") ? "Lapsed" : "Rejected";
  return "Open for signatures";
}

/** The library's certificates of written resolutions: its search matches a document's category too. */
export const certificateCategory = "Resolution Certificates";
export const certificateLibraryHref = `/documents?search=${encodeURIComponent(certificateCategory)}`;

/** A written resolution's text in a list: its words without the Markdown's marks (headings, quotes, list markers, bold, code). */
export function markdownSummary(source: string): string {
  return source
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d{1,9}[.)])\s+/gm, "")
    .replace(/\*\*|__|`/g, "")
    .replace(/\s+/g, " ")
    .trim();
}
