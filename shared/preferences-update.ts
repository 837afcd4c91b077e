import { z } from "zod";
import { answer } from "./answer";
import { preferenceKeys, type PreferenceKey, type Preferences, type PreferencesUpdate } from "./preferences";

/** `PUT /api/users/:id/preferences`: any of the switches; an absent one keeps its value. Unknown keys are refused. */
export const preferencesUpdateSchema: z.ZodType<PreferencesUpdate> = z.strictObject(
  Object.fromEntries(preferenceKeys.map((key) => [key, z.optional(z.boolean())])) as Record<PreferenceKey, z.ZodOptional<z.ZodBoolean>>,
);

/** `GET|PUT /api/users/:id/preferences` answer every switch, each over its default. */
export const preferencesSchema: z.ZodType<Preferences> = answer.strictObject(
  Object.fromEntries(preferenceKeys.map((key) => [key, answer.boolean()])) as Record<PreferenceKey, z.ZodBoolean>,
);
