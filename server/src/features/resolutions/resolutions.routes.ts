import { Router, type Request } from "express";
import { castVoteSchema, conflictSchema, createResolutionSchema, quorumSettingsSchema } from "../../../../shared/resolutions";
import type { RouterDeps } from "../../app-deps";
import { authOf, tenantOf } from "../../http/guards";
import { idParam, parseOr400 } from "../../http/validate";
import {
  castVote,
  createResolution,
  declareConflict,
  listResolutions,
  pendingResolutions,
  quorumSetting,
  readVotePoll,
  resolutionCompanyOf,
  resolutionDetails,
  updateQuorumSetting,
  voteCounts,
  withdrawConflict,
} from "./resolutions.service";

/** Mounted at /api: /resolutions..., /companies/:companyId/resolutions..., /companies/:companyId/quorum. */
export function resolutionsRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requireCompanyMember } = deps.guards;
  const resolutionOf = { from: "thing" as const, companyOf: (req: Request) => resolutionCompanyOf(deps, idParam(req.params.id)) };
  const byCompany = { from: "param" as const, param: "companyId" };
  // The vote poll's answer, read by its guard's company lookup; the handler answers it once the guard passed.
  const polls = new WeakMap<Request, Awaited<ReturnType<typeof readVotePoll>>>();
  const pollOf = {
    from: "thing" as const,
    companyOf: async (req: Request) => {
      const read = await readVotePoll(deps, idParam(req.params.id), authOf(req).user.id);
      polls.set(req, read);
      return read?.companyId ?? null;
    },
  };

  router.post(
    "/resolutions",
    ...requireCompanyMember({ company: { from: "active" }, permission: "createResolution" }),
    async (req, res) => {
      const input = parseOr400(createResolutionSchema, req.body);
      res.status(201).json(await createResolution(deps, tenantOf(req), input));
    },
  );

  router.get("/companies/:companyId/resolutions", ...requireCompanyMember({ company: byCompany }), async (req, res) => {
    res.json(await listResolutions(deps, tenantOf(req).company.id));
  });

  router.get("/companies/:companyId/resolutions/pending", ...requireCompanyMember({ company: byCompany }), async (req, res) => {
    res.json(await pendingResolutions(deps, tenantOf(req).company.id));
  });

  router.get("/resolutions/:id", ...requireCompanyMember({ company: resolutionOf }), async (req, res) => {
    res.json(await resolutionDetails(deps, idParam(req.params.id)));
  });

  router.get("/resolutions/:id/votes", ...requireCompanyMember({ company: pollOf }), async (req, res) => {
    res.json(await voteCounts(deps, idParam(req.params.id), tenantOf(req).user.id, polls.get(req)));
  });

  // A vote, and a conflict declared or withdrawn, check the caller's membership and role themselves, under the
  // resolution's row lock (see openWrite): a guard's check before it would be the same read, made twice.
  router.post("/resolutions/:id/vote", ...deps.guards.requireAuthThenThingInService, async (req, res) => {
    const input = parseOr400(castVoteSchema, req.body);
    res.json(await castVote(deps, authOf(req).user, idParam(req.params.id), input));
  });

  router.post("/resolutions/:id/conflict", ...deps.guards.requireAuthThenThingInService, async (req, res) => {
    const { reason } = parseOr400(conflictSchema, req.body);
    await declareConflict(deps, authOf(req).user, idParam(req.params.id), reason);
    res.status(204).end();
  });

  router.delete("/resolutions/:id/conflict", ...deps.guards.requireAuthThenThingInService, async (req, res) => {
    await withdrawConflict(deps, authOf(req).user, idParam(req.params.id));
    res.status(204).end();
  });

  router.get("/companies/:companyId/quorum", ...requireCompanyMember({ company: byCompany }), async (req, res) => {
    res.json(await quorumSetting(deps, tenantOf(req).company.id));
  });

  router.put(
    "/companies/:companyId/quorum",
    ...requireCompanyMember({ company: byCompany, permission: "editCompany" }),
    async (req, res) => {
      const { quorumPercent } = parseOr400(quorumSettingsSchema, req.body);
      res.json(await updateQuorumSetting(deps, tenantOf(req), quorumPercent));
    },
  );

  return router;
}
