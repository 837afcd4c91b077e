import type { Request } from "express";
import * as api from "../../../../shared/api/documents";
import { replaceFieldsSchema } from "../../../../shared/paper-versions";
import type { RouterDeps } from "../../app-deps";
import { route, type BoundRoute } from "../../http/endpoints";
import { idParam, parseOr400 } from "../../http/validate";
import { answerDownload } from "./download";
import { documentCompanyOf, getDocument } from "./documents-read.service";
import { declaresTooLarge, readMultipart, refuseUnread } from "./multipart";
import { queueVersionText } from "./paper-text.service";
import { assertReplaceable, listVersions, replaceDocumentFile, versionDownload } from "./versions.service";

/**
 * A paper's versions, bound to their declarations. Mounted with the documents' routes, ahead of the general body
 * parser: a new version's body is read here, as a stream, after the guard and after the caller is known to be allowed.
 */
export function versionsRoutes(deps: RouterDeps): BoundRoute[] {
  const documentOf = { companyOf: (req: Request) => documentCompanyOf(deps, idParam(req.params.id)) };

  return [
    route(
      api.replaceDocument,
      async ({ tenant, params, req, res }) => {
        if (declaresTooLarge(req)) refuseUnread(req, res);
        try {
          // Refused before a byte of the new file is stored.
          await assertReplaceable(deps.db, tenant, params.id);
        } catch (error) {
          req.resume();
          throw error;
        }
        await readMultipart(req, (fields, fileName, file) => {
          const { note } = parseOr400(replaceFieldsSchema, fields);
          return replaceDocumentFile(deps, tenant, params.id, note, fileName, file);
        });
        const replaced = await getDocument(deps, params.id, tenant.user.id);
        // The new version's text (for what changed, and for notes to find their page) is read in the background.
        queueVersionText(deps, replaced.id, replaced.version);
        return replaced;
      },
      documentOf,
    ),
    route(api.listVersions, ({ params }) => listVersions(deps, params.id), documentOf),
    route(
      api.downloadVersion,
      async ({ params, query, req, res }) => {
        await answerDownload(req, res, await versionDownload(deps, params.id, params.version), query.inline);
      },
      documentOf,
    ),
  ];
}
