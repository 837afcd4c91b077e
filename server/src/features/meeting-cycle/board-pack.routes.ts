import type { RouterDeps } from "../../app-deps";
import type { BoundRoute } from "../../http/endpoints";

export function boardPackRoutes(_deps: RouterDeps): BoundRoute[] {
  return [];
}
