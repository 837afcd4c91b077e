import { lazy, Suspense, useEffect, useState } from "react";
import { useLocation, useParams, useSearch } from "wouter";
import { can } from "@shared/permissions";
import { resolutionTab } from "@shared/resolution-model";
import type { Resolution } from "@shared/resolutions";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useNow } from "@/lib/use-now";
import { useShownOnce } from "@/lib/use-shown-once";
import { useActiveCompanyQuery } from "@/lib/auth/active-company";
import { companySettingsQueryOptions } from "@/features/companies/api/get-company-settings";
import { useLibrary } from "@/features/documents/api/get-library";
import { useResolutions } from "@/features/resolutions/api/get-resolutions";
import { ResolutionsList } from "@/features/resolutions/components/resolutions-list";

// The dialogs load when first opened: the New Resolution dialog (its form, validation, select and date fields), the
// vote and the details. Once opened, the vote and the details stay mounted, and close as dialogs do.
const NewResolutionDialog = lazy(async () => ({
  default: (await import("@/features/resolutions/components/new-resolution-dialog")).NewResolutionDialog,
}));
const CastVoteDialog = lazy(async () => ({
  default: (await import("@/features/resolutions/components/cast-vote-dialog")).CastVoteDialog,
}));
const ResolutionDetailsDialog = lazy(async () => ({
  default: (await import("@/features/resolutions/components/resolution-details-dialog")).ResolutionDetailsDialog,
}));

/** How long after arriving with `?new=1` (the dashboard's 'Create resolution') the New Resolution dialog opens. */
export const NEW_RESOLUTION_DELAY_MS = 100;

/**
 * /resolutions and /resolutions/:id (which opens that resolution: the vote dialog while it is open to the
 * caller's vote, its details or certificate otherwise; a written resolution always opens its details, where it is signed). `?new=1` opens the New Resolution dialog.
 */
export function ResolutionsPage({ now: fixedNow }: { now?: Date } = {}) {
  const { user } = useCurrentUser();
  const params = useParams<{ id?: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const liveNow = useNow();
  const now = fixedNow ?? liveNow;
  const resolutions = useResolutions();
  const canCreate = can(user?.role, "createResolution");
  const canVote = can(user?.role, "vote");
  const [creating, setCreating] = useState(false);
  // The page composes the two features: the documents library feeds the New Resolution picker.
  const documents = useLibrary({ enabled: creating });
  // ...and the company's settings give it the board's rule for written resolutions.
  const company = useActiveCompanyQuery(companySettingsQueryOptions, { enabled: creating });
  const writtenRule = company.data && {
    kind: company.data.company.writtenResolutionRule,
    lapseDays: company.data.company.writtenLapseDays,
    allowWithdrawal: company.data.company.writtenAllowWithdrawal,
    meetingDemandPercent: company.data.company.writtenMeetingDemandPercent,
  };
  const [voting, setVoting] = useState<Resolution | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);

  const wantsNew = new URLSearchParams(search).get("new") === "1";
  useEffect(() => {
    if (!wantsNew || !canCreate) return;
    const timer = setTimeout(() => {
      setCreating(true);
      navigate("/resolutions", { replace: true });
    }, NEW_RESOLUTION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [wantsNew, canCreate, navigate]);

  // /resolutions/:id opens that resolution once the list has it (another company's id opens its details, which answer "not found").
  const routeId = /^\d{1,9}$/.test(params.id ?? "") ? Number(params.id) : null;
  const routed = routeId === null ? undefined : resolutions.data?.find((resolution) => resolution.id === routeId);
  const routeReady = routeId !== null && (routed !== undefined || resolutions.isError || (resolutions.isSuccess && !routed));
  // A written resolution is signed in its details.
  const routeVotes = routed !== undefined && canVote && routed.procedure === "vote" && resolutionTab(routed, now) === "pending";
  const votingOn = voting ?? (routeReady && routeVotes ? routed! : null);
  const viewingId = viewing ?? (routeReady && !routeVotes ? routeId : null);
  const votedOnce = useShownOnce(votingOn !== null);
  const viewedOnce = useShownOnce(viewingId !== null);

  const close = () => {
    setVoting(null);
    setViewing(null);
    if (routeId !== null) navigate("/resolutions");
  };

  return (
    <>
      <ResolutionsList
        resolutions={resolutions}
        now={now}
        onNewResolution={canCreate ? () => setCreating(true) : undefined}
        onVote={canVote ? setVoting : undefined}
        onOpen={(resolution) => setViewing(resolution.id)}
      />
      {canCreate && creating && (
        <Suspense fallback={null}>
          <NewResolutionDialog open={creating} onOpenChange={setCreating} documents={documents} writtenRule={writtenRule} />
        </Suspense>
      )}
      {votedOnce && (
        <Suspense fallback={null}>
          <CastVoteDialog resolution={votingOn} userId={user?.id} onOpenChange={(open) => !open && close()} />
        </Suspense>
      )}
      {viewedOnce && (
        <Suspense fallback={null}>
          <ResolutionDetailsDialog id={viewingId} now={now} onOpenChange={(open) => !open && close()} />
        </Suspense>
      )}
    </>
  );
}
