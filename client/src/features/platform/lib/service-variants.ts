import {
  adminServiceFormSchema,
  adminSettingsServiceTypes,
  platformServiceFormSchema,
  platformSettingsServiceTypes,
  type ServiceTypeOption,
} from "@shared/platform";
import type { ToastInput } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";

/** The three screens that edit platform services differ in wording, in how the name is chosen and in their toasts. */
export type ServiceScreen = "platform-settings" | "admin-portal" | "admin-settings";

export interface ServiceScreenConfig {
  schema: typeof platformServiceFormSchema | typeof adminServiceFormSchema;
  /** A select of service types, or null for a free-text name. */
  types: readonly ServiceTypeOption[] | null;
  nameLabel: string;
  keyLabel: string;
  urlLabel: string;
  descriptionLabel: string;
  enabledLabel: string;
  title: { add: string; edit: string };
  submit: { add: string; edit: string };
  /** The button that confirms a deletion. */
  confirmDelete: string;
}

/** The Admin Portal and Admin Settings word their dialogs alike; they differ in how the name is chosen. */
const adminWording: Omit<ServiceScreenConfig, "types" | "nameLabel"> = {
  schema: adminServiceFormSchema,
  keyLabel: "Service Key",
  urlLabel: "Service URL (optional)",
  descriptionLabel: "Description (optional)",
  enabledLabel: "Enabled",
  title: { add: "Add Service", edit: "Edit Service" },
  submit: { add: "Add Service", edit: "Save Changes" },
  confirmDelete: "Delete",
};

export const serviceScreens: Record<ServiceScreen, ServiceScreenConfig> = {
  "platform-settings": {
    schema: platformServiceFormSchema,
    types: platformSettingsServiceTypes,
    nameLabel: "Service Type",
    keyLabel: "API Key",
    urlLabel: "Service URL",
    descriptionLabel: "Description",
    enabledLabel: "Enable Service",
    title: { add: "Add New Service", edit: "Edit Service" },
    submit: { add: "Add Service", edit: "Update Service" },
    confirmDelete: "Remove",
  },
  "admin-portal": { ...adminWording, types: null, nameLabel: "Service Name" },
  "admin-settings": { ...adminWording, types: adminSettingsServiceTypes, nameLabel: "Service Type" },
};

/** The messaging service's fields: "API Key / SID" and a masked "Auth Token / API Secret". */
export const messagingLabels = { key: "API Key / SID", url: "Auth Token / API Secret" } as const;

const errorText = (error: unknown) => serverMessageOf(error) ?? (error instanceof Error ? error.message : String(error));

/**
 * The toasts of a save. On a failure Platform Settings says 'Failed to add/update service:' and why; the admin
 * screens say the server's message, or a general sentence when it sent none.
 */
export function savedToast(screen: ServiceScreen, mode: "add" | "edit", serviceName: string): ToastInput {
  const verb = mode === "add" ? "added" : "updated";
  return {
    title: mode === "add" ? "Service added" : "Service updated",
    description: screen === "platform-settings" ? `${serviceName} has been ${verb}.` : `${serviceName} has been ${verb} successfully.`,
  };
}

export function saveFailedToast(screen: ServiceScreen, mode: "add" | "edit", error: unknown): ToastInput {
  const description =
    screen === "platform-settings"
      ? `Failed to ${mode === "add" ? "add" : "update"} service: ${errorText(error)}`
      : (serverMessageOf(error) ?? "There was an error processing your request.");
  return { title: "Error", description, variant: "destructive" };
}

/** The toasts of a removal, worded per screen like those of a save. */
export function removedToast(screen: ServiceScreen, serviceName: string): ToastInput {
  return {
    title: "Service removed",
    description: screen === "platform-settings" ? `${serviceName} has been removed.` : `${serviceName} has been removed successfully.`,
  };
}

export function removeFailedToast(screen: ServiceScreen, error: unknown): ToastInput {
  const description =
    screen === "platform-settings"
      ? `Failed to remove service: ${errorText(error)}`
      : (serverMessageOf(error) ?? "There was an error removing the service.");
  return { title: "Error", description, variant: "destructive" };
}

/** The admin tables show the key's first 8 characters and an ellipsis (the API already answers no more). */
export function keyPreview(maskedKey: string): string {
  return `${maskedKey.replace(/…$/, "").slice(0, 8)}…`;
}
