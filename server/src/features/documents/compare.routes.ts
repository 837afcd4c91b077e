import type { Request } from "express";
import * as api from "../../../../shared/api/documents";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { idParam } from "../../http/validate";
import { documentCompanyOf } from "./documents-read.service";
import { compareVersions } from "./paper-text.service";

/** What changed between two versions of a paper (computed once per pair, in a text worker). */
export function compareRoutes(deps: RouterDeps): BoundRoute[] {
  const documentOf = { companyOf: (req: Request) => documentCompanyOf(deps, idParam(req.params.id)) };
  return [route(api.compareVersions, ({ params, query }) => compareVersions(deps, params.id, query.from, query.to), documentOf)];
}
