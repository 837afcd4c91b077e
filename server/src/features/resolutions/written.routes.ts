import type { Request } from "express";
import * as api from "../../../../shared/api/resolutions";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { idParam } from "../../http/validate";
import { writerOf } from "./open-resolution-write.service";
import { resolutionCompanyOf, writtenCertificateOf } from "./resolutions-read.service";
import { fileDecidedCertificates } from "./written-certificate-file";
import { signOptions, signResolution, withdrawSignature } from "./written-sign.service";

/** The written resolutions' endpoints (shared/api/resolutions.ts): signing, withdrawing, the certificate. */
export function writtenResolutionsRoutes(deps: RouterDeps): BoundRoute[] {
  /**
   * A signature or a withdrawal may decide the resolution: once it has committed, its certificate is filed in the
   * library before the answer (a failure is left to the sweep, which files it within a minute).
   */
  const thenFileCertificate = async <T>(id: number, written: Promise<T>): Promise<T> => {
    const answer = await written;
    await fileDecidedCertificates(deps, { resolutionId: id }).catch((error: unknown) => {
      deps.logger.error({ err: error, resolutionId: id }, "filing a written resolution's certificate failed");
    });
    return answer;
  };
  const resolutionOf = { companyOf: (req: Request) => resolutionCompanyOf(deps, idParam(req.params.id)) };
  return [
    // Signing and withdrawing check the caller's membership and role in the service, under the resolution's row lock.
    route(api.signOptions, ({ auth, params, body }) => signOptions(deps, writerOf(auth), params.id, body.decision)),
    route(api.signResolution, ({ auth, params, body, req }) =>
      thenFileCertificate(
        params.id,
        signResolution(deps, { writer: writerOf(auth), user: auth.user }, params.id, body, req.ip ?? "unknown"),
      ),
    ),
    route(api.withdrawSignature, ({ auth, params }) => thenFileCertificate(params.id, withdrawSignature(deps, writerOf(auth), params.id))),
    route(api.writtenCertificate, ({ params }) => writtenCertificateOf(deps, params.id), resolutionOf),
  ];
}
