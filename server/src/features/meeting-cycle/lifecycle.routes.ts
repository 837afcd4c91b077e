import type { RouterDeps } from "../../app-deps";
import type { BoundRoute } from "../../http/endpoints";

export function lifecycleRoutes(_deps: RouterDeps): BoundRoute[] {
  return [];
}
