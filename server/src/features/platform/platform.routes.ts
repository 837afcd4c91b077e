import { Router } from "express";
import { createPlatformServiceSchema, updatePlatformServiceSchema } from "../../../../shared/platform";
import type { RouterDeps } from "../../app-deps";
import { authOf } from "../../http/guards";
import { idParam, parseOr400 } from "../../http/validate";
import { createService, deleteService, listServices, updateService } from "./platform.service";

/** /api/platform/settings: platform administrators only (401 signed out, 403 anyone else). */
export function platformSettingsRouter(deps: RouterDeps): Router {
  const router = Router();
  const { requirePlatformAdmin } = deps.guards;

  router.get("/", ...requirePlatformAdmin, async (_req, res) => {
    res.json(await listServices(deps));
  });

  router.post("/", ...requirePlatformAdmin, async (req, res) => {
    const input = parseOr400(createPlatformServiceSchema, req.body);
    res.status(201).json(await createService(deps, authOf(req).user.id, input));
  });

  router.put("/:id", ...requirePlatformAdmin, async (req, res) => {
    const id = idParam(req.params.id);
    const input = parseOr400(updatePlatformServiceSchema, req.body);
    res.json(await updateService(deps, authOf(req).user.id, id, input));
  });

  router.delete("/:id", ...requirePlatformAdmin, async (req, res) => {
    await deleteService(deps, authOf(req).user.id, idParam(req.params.id));
    res.status(204).end();
  });

  return router;
}
