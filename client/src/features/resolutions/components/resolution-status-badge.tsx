import type { Resolution, ResolutionTab } from "@shared/resolutions";
import type { ResolutionProcedure } from "@shared/written-resolutions";
import { Badge } from "@/components/ui/badge";
import { resolutionBadge } from "@/features/resolutions/lib/resolution-display";

export function ResolutionStatusBadge({ resolution, tab }: { resolution: Pick<Resolution, "status">; tab: ResolutionTab }) {
  const { label, variant } = resolutionBadge(resolution, tab);
  return <Badge variant={variant}>{label}</Badge>;
}

/** How a resolution is decided: "Written" (signed by each director) or "Vote" (an online vote). */
export function ProcedureBadge({ procedure }: { procedure: ResolutionProcedure }) {
  return <Badge variant="outline">{procedure === "written" ? "Written" : "Vote"}</Badge>;
}
