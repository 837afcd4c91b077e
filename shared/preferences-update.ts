import { z } from "zod";
import { preferenceKeys, type PreferenceKey, type PreferencesUpdate } from "./preferences";

/** `PUT /api/users/:id/preferences`: any of the switches; an absent one keeps its value. Unknown keys are refused. */
export const preferencesUpdateSchema: z.ZodType<PreferencesUpdate> = z.strictObject(
  Object.fromEntries(preferenceKeys.map((key) => [key, z.optional(z.boolean())])) as Record<PreferenceKey, z.ZodOptional<z.ZodBoolean>>,
);
