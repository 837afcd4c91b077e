import type { Request } from "express";
import * as api from "../../../../shared/api/resolutions";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { idParam } from "../../http/validate";
import { writerOf } from "./open-resolution-write.service";
import { resolutionCompanyOf, writtenCertificateOf } from "./resolutions-read.service";
import { signOptions, signResolution, withdrawSignature } from "./written-sign.service";

/** The written resolutions' endpoints (shared/api/resolutions.ts): signing, withdrawing, the certificate. */
export function writtenResolutionsRoutes(deps: RouterDeps): BoundRoute[] {
  const resolutionOf = { companyOf: (req: Request) => resolutionCompanyOf(deps, idParam(req.params.id)) };
  return [
    // Signing and withdrawing check the caller's membership and role in the service, under the resolution's row lock.
    route(api.signOptions, ({ auth, params, body }) => signOptions(deps, writerOf(auth), params.id, body.decision)),
    route(api.signResolution, ({ auth, params, body, req }) =>
      signResolution(deps, { writer: writerOf(auth), user: auth.user }, params.id, body, req.ip ?? "unknown"),
    ),
    route(api.withdrawSignature, ({ auth, params }) => withdrawSignature(deps, writerOf(auth), params.id)),
    route(api.writtenCertificate, ({ params }) => writtenCertificateOf(deps, params.id), resolutionOf),
  ];
}
