import type { QueryClient } from "@tanstack/react-query";
import type { LiveEventData } from "@shared/live-events";
import type { Resolution, ResolutionDetails, VoteCounts } from "@shared/resolutions";
import { markComplianceStale } from "@/lib/compliance-keys";
import { resolutionKeys } from "@/features/resolutions/api/resolution-keys";

// What the live stream's resolution events do to the cached reads. Types only from the shapes' module: this ships
// with the signed-in shell, which carries no zod.

/**
 * New counts of a resolution, written into every cached read that shows them, so no screen asks the server again.
 * The event is the same for every member: the caller's own `userVote` stays as cached. A resolution not in the
 * cache (another company's, or one nobody has opened) changes nothing.
 */
export function applyLiveVoteCounts(
  queryClient: QueryClient,
  companyId: number | null,
  { resolutionId, yes, no, abstain, total }: LiveEventData["votes"],
): void {
  const tally = { yes, no, abstain };
  queryClient.setQueryData<VoteCounts>(resolutionKeys.votes(companyId, resolutionId), (counts) => counts && { ...counts, ...tally, total });
  queryClient.setQueryData<Resolution[]>(resolutionKeys.list(companyId), (list) =>
    list?.some((resolution) => resolution.id === resolutionId)
      ? list.map((resolution) => (resolution.id === resolutionId ? { ...resolution, voteCounts: tally } : resolution))
      : undefined,
  );
  const detailKey = resolutionKeys.detail(companyId, resolutionId);
  const details = queryClient.setQueryData<ResolutionDetails>(detailKey, (cached) => cached && { ...cached, voteCounts: tally });
  // The details also name who has voted: only a new voter (or a withdrawn vote) changes that, and only then is it asked for.
  if (details && details.voters.length !== total) void queryClient.invalidateQueries({ queryKey: detailKey, exact: true });
}

/**
 * A resolution was decided (or its status changed): the lists, its details and counts, and the compliance verdicts
 * that read decided and pending resolutions are read again.
 */
export function refreshLiveResolution(queryClient: QueryClient, companyId: number | null, resolutionId: number): Promise<unknown> {
  return Promise.all([
    ...[
      resolutionKeys.list(companyId),
      resolutionKeys.pending(companyId),
      resolutionKeys.detail(companyId, resolutionId),
      resolutionKeys.votes(companyId, resolutionId),
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey, exact: true })),
    markComplianceStale(queryClient, companyId),
  ]);
}
