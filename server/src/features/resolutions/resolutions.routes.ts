import type { Request } from "express";
import * as api from "../../../../shared/api/resolutions";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { route, type BoundRoute } from "../../http/endpoints";
import { idParam } from "../../http/validate";
import { declareConflict, withdrawConflict } from "./conflicts.service";
import { writerOf } from "./open-resolution-write.service";
import { quorumSetting, updateQuorumSetting } from "./quorum-setting.service";
import { createResolution } from "./resolution-create.service";
import { listResolutions, pendingResolutions, resolutionCompanyOf, resolutionDetails } from "./resolutions-read.service";
import { castVote } from "./vote.service";
import { readVotePoll, voteCounts, type VotePollRead } from "./vote-poll.service";
import { createVotePollCache } from "./vote-poll-cache";

/** The resolutions endpoints (shared/api/resolutions.ts) bound to their handlers. */
export function resolutionsRoutes(deps: RouterDeps): BoundRoute[] {
  const resolutionOf = { companyOf: (req: Request) => resolutionCompanyOf(deps, idParam(req.params.id)) };
  // The vote poll's answer, read by its guard's company lookup; the handler answers it once the guard passed.
  const polls = new WeakMap<Request, Awaited<ReturnType<typeof readVotePoll>>>();
  // Every open resolution screen without the live stream asks every few seconds: the answer is kept until it changes.
  const pollCache = createVotePollCache<VotePollRead>(deps.live);
  /** This instance's own writes to a resolution show on its next poll here at once. */
  const thenForget = async <T>(id: number, write: Promise<T>): Promise<T> => {
    try {
      return await write;
    } finally {
      pollCache.forget(id);
    }
  };
  const pollOf = {
    companyOf: async (req: Request) => {
      const read = await readVotePoll(deps, idParam(req.params.id), authOf(req).user.id, pollCache);
      polls.set(req, read);
      return read?.companyId ?? null;
    },
  };

  return [
    route(api.createResolution, ({ tenant, body }) => createResolution(deps, tenant, body)),
    route(api.listResolutions, ({ tenant }) => listResolutions(deps, tenant.company.id, deps.lists)),
    route(api.pendingResolutions, ({ tenant }) => pendingResolutions(deps, tenant.company.id, tenant.user.id)),
    route(
      api.getResolution,
      ({ params, tenant }) => resolutionDetails(deps, params.id, { userId: tenant.user.id, role: tenant.role }),
      resolutionOf,
    ),
    route(api.getVoteCounts, ({ params, tenant, req }) => voteCounts(deps, params.id, tenant.user.id, polls.get(req)), pollOf),
    // A vote, and a conflict declared or withdrawn, check the caller's membership and role themselves, under the
    // resolution's row lock: a guard's check before it would be the same read, made twice.
    // A vote confirms the caller's session in its own statement, so its session may come from the cache.
    route(api.castVote, ({ auth, params, body }) => thenForget(params.id, castVote(deps, writerOf(auth), params.id, body)), {
      sessionConfirmedByWrite: true,
    }),
    route(api.declareConflict, ({ auth, params, body }) =>
      thenForget(params.id, declareConflict(deps, writerOf(auth), params.id, body.reason)),
    ),
    route(api.withdrawConflict, ({ auth, params }) => thenForget(params.id, withdrawConflict(deps, writerOf(auth), params.id))),
    route(api.getQuorum, ({ tenant }) => quorumSetting(deps, tenant.company.id)),
    route(api.updateQuorum, ({ tenant, body }) => updateQuorumSetting(deps, tenant, body.quorumPercent)),
  ];
}
