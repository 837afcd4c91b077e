import { z } from "zod";
import { createPlatformServiceSchema, platformServiceSchema, updatePlatformServiceSchema } from "../platform";
import { endpoint } from "./endpoint";

const tag = "Platform";
const platformAdmins = { class: "platform" } as const;
const nameTaken = "Another service has this name, in any letter case";
const keyWriteForbidden =
  "The caller is not a platform administrator, or their session passed no second factor in the last 12 hours (code second_factor_required)";

export const listServices = endpoint({
  method: "GET",
  path: "/api/platform/settings",
  summary: "Every platform service, each key masked",
  tag,
  access: platformAdmins,
  responses: { 200: z.array(platformServiceSchema) },
});

export const createService = endpoint({
  method: "POST",
  path: "/api/platform/settings",
  summary: "Add a platform service; the key is stored encrypted and answered masked",
  tag,
  access: platformAdmins,
  body: createPlatformServiceSchema,
  responses: { 201: platformServiceSchema },
  errors: { 403: keyWriteForbidden, 409: nameTaken },
});

export const updateService = endpoint({
  method: "PUT",
  path: "/api/platform/settings/:id",
  summary: "Change a platform service: an absent field keeps its value, an empty or masked key keeps the stored one",
  tag,
  access: platformAdmins,
  body: updatePlatformServiceSchema,
  responses: { 200: platformServiceSchema },
  errors: { 403: keyWriteForbidden, 404: "No service has this id", 409: nameTaken },
});

export const deleteService = endpoint({
  method: "DELETE",
  path: "/api/platform/settings/:id",
  summary: "Remove a platform service",
  tag,
  access: platformAdmins,
  responses: { 204: null },
  errors: { 403: keyWriteForbidden, 404: "No service has this id" },
});
