import { z } from "zod";
import { endpoint } from "./endpoint";

export const health = endpoint({
  method: "GET",
  path: "/api/health",
  summary: "Whether the server is up and reaches its database",
  tag: "Health",
  access: { class: "public" },
  responses: { 200: z.object({ status: z.literal("ok") }) },
});
