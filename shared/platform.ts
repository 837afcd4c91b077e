import { z } from "zod";
import { answer } from "./answer";
import { text } from "./input";

/**
 * Platform services: the keys of outside services (AI, e-mail, messaging, storage) kept by platform admins.
 * The service types offered by the admin pages are stored under these names; the AI agenda reads the enabled "OpenAI" one.
 */
export const serviceNames = {
  ai: "OpenAI",
  email: "SendGrid",
  messaging: "Twilio",
  storage: "Storage",
  custom: "Custom",
} as const;

export interface ServiceTypeOption {
  value: string;
  label: string;
}

/** The Platform Settings page's type select: the messaging type is labelled as e-mail messaging. */
export const platformSettingsServiceTypes: readonly ServiceTypeOption[] = [
  { value: serviceNames.ai, label: "AI Service (OpenAI)" },
  { value: serviceNames.messaging, label: "Email Messaging (Twilio)" },
  { value: serviceNames.storage, label: "Cloud Storage" },
  { value: serviceNames.custom, label: "Custom Service" },
];

/** The Admin Settings page's type select; the first (the AI service) is the default. */
export const adminSettingsServiceTypes: readonly ServiceTypeOption[] = [
  { value: serviceNames.ai, label: "AI Service (OpenAI)" },
  { value: serviceNames.email, label: "Email Service (SendGrid)" },
  { value: serviceNames.messaging, label: "SMS Messaging (Twilio)" },
  { value: serviceNames.storage, label: "Cloud Storage" },
  { value: serviceNames.custom, label: "Custom Service" },
];

/** The messaging service's URL field holds its Auth Token / API Secret, so the server keeps it secret like a key. */
export function isMessagingService(serviceName: string | null | undefined): boolean {
  return (serviceName ?? "").trim().toLowerCase() === serviceNames.messaging.toLowerCase();
}

/** What the API answers instead of a secret URL (the messaging service's auth token). Sending it back keeps the stored one. */
export const maskedSecretUrl = "••••••••";

/** A masked key as the API answers it ends with this character; sending it back keeps the stored key. */
export const maskEllipsis = "…";

const serviceLimits = { name: 100, key: 4096, url: 2048, description: 1000 } as const;

// --- The forms (their messages are the ones users see) -------------------------------------------------------

const optionalText = (max: number, label: string) => z.nullish(text({ max, maxMessage: `${label} must be at most ${max} characters` }));

const serviceName = (min: number, minMessage: string) =>
  text({
    max: serviceLimits.name,
    min,
    requiredMessage: minMessage,
    maxMessage: `Service name must be at most ${serviceLimits.name} characters`,
  });
const serviceKey = (min: number, requiredMessage?: string) =>
  text({ max: serviceLimits.key, min, requiredMessage, maxMessage: `Service key must be at most ${serviceLimits.key} characters` });

/** The service form: the two pages differ only in the rule and words for the name and for a missing key. */
const serviceFormSchema = (name: { min: number; message: string }, keyRequired: string) =>
  z.object({
    serviceName: serviceName(name.min, name.message),
    serviceKey: serviceKey(1, keyRequired),
    serviceUrl: optionalText(serviceLimits.url, "URL"),
    description: optionalText(serviceLimits.description, "Description"),
    isEnabled: z.boolean(),
  });

/** Platform Settings page: name at least 2 characters, key required. */
export const platformServiceFormSchema = serviceFormSchema(
  { min: 2, message: "Service name must be at least 2 characters." },
  "Service key is required.",
);
export type PlatformServiceFormValues = z.infer<typeof platformServiceFormSchema>;

/** Admin Portal and Admin Settings: name and key required (the server still applies the 2-character rule). */
export const adminServiceFormSchema = serviceFormSchema({ min: 1, message: "Service name is required" }, "Service key is required");
export type AdminServiceFormValues = z.infer<typeof adminServiceFormSchema>;

// --- The wire (the server validates with these) ------------------------------------------------

/** POST /api/platform/settings: the stricter of the two form rules; isEnabled defaults to true. */
export const createPlatformServiceSchema = z.object({
  serviceName: platformServiceFormSchema.shape.serviceName,
  serviceKey: platformServiceFormSchema.shape.serviceKey,
  serviceUrl: optionalText(serviceLimits.url, "URL"),
  description: optionalText(serviceLimits.description, "Description"),
  isEnabled: z.boolean().default(true),
});
export type CreatePlatformServiceInput = z.infer<typeof createPlatformServiceSchema>;

/**
 * PUT /api/platform/settings/:id: every field optional (an absent field keeps its value).
 * An empty or masked `serviceKey` keeps the stored key; a masked `serviceUrl` keeps the stored secret URL.
 */
export const updatePlatformServiceSchema = z.object({
  serviceName: z.optional(platformServiceFormSchema.shape.serviceName),
  serviceKey: z.nullish(serviceKey(0)),
  serviceUrl: optionalText(serviceLimits.url, "URL"),
  description: optionalText(serviceLimits.description, "Description"),
  isEnabled: z.boolean().optional(),
});
export type UpdatePlatformServiceInput = z.infer<typeof updatePlatformServiceSchema>;

/** How many of a key's first characters its masked form shows at most (the server's maskSecret; fewer for short keys). */
const maskedKeyShownCharacters = 8;

/** A service as the API answers it: the key only ever in its masked form. */
export const platformServiceSchema = answer.object({
  id: answer.number().int(),
  serviceName: answer.string(),
  /** The first characters of the key and "…": never the key itself. */
  serviceKey: answer
    .string()
    .max(maskedKeyShownCharacters + maskEllipsis.length)
    .endsWith(maskEllipsis),
  hasKey: answer.boolean(),
  /** The URL, or `maskedSecretUrl` when it is a secret (the messaging service's auth token). */
  serviceUrl: answer.string().nullable(),
  serviceUrlIsSecret: answer.boolean(),
  isEnabled: answer.boolean(),
  description: answer.string().nullable(),
  createdAt: answer.string(),
  updatedAt: answer.string(),
});
export type PlatformService = z.infer<typeof platformServiceSchema>;
