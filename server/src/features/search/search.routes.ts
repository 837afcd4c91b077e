import * as api from "../../../../shared/api/search";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { search } from "./search.service";

/** The search over a caller's companies (shared/api/search.ts); which companies and what of them is the service's to decide. */
export function searchRoutes(deps: RouterDeps): BoundRoute[] {
  return [route(api.search, ({ auth, query }) => search(deps, auth, query))];
}
