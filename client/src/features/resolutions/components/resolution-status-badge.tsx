import type { Resolution, ResolutionTab } from "@shared/resolutions";
import { Badge } from "@/components/ui/badge";
import { resolutionBadge } from "@/features/resolutions/lib/resolution-form";

export function ResolutionStatusBadge({ resolution, tab }: { resolution: Pick<Resolution, "status">; tab: ResolutionTab }) {
  const { label, variant } = resolutionBadge(resolution, tab);
  return <Badge variant={variant}>{label}</Badge>;
}
