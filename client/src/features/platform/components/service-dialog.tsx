import { zodResolver } from "@hookform/resolvers/zod";
import type { FocusEvent } from "react";
import { useForm, useWatch } from "react-hook-form";
import { isMessagingService, maskedSecretUrl, type PlatformService, type PlatformServiceFormValues } from "@shared/platform";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Form, FormControl, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { FormSelect } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { applyServerErrors } from "@/lib/form-errors";
import { useCreatePlatformService } from "@/features/platform/api/create-platform-service";
import { useUpdatePlatformService } from "@/features/platform/api/update-platform-service";
import { messagingLabels, saveFailedToast, savedToast, serviceScreens, type ServiceScreen } from "@/features/platform/lib/service-variants";

export interface ServiceDialogProps {
  screen: ServiceScreen;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The service being edited, or null to add one. */
  service: PlatformService | null;
  /** Called after a successful save (the dialog has closed). */
  onSaved?: () => void;
}

/** The add/edit dialog of a platform service, worded for its screen. At most 500 px wide. */
export function ServiceDialog({ screen, open, onOpenChange, service, onSaved }: ServiceDialogProps) {
  const config = serviceScreens[screen];
  const mode = service ? "edit" : "add";
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-[500px]">
        <DialogHeader>
          <DialogTitle>{config.title[mode]}</DialogTitle>
          <DialogDescription>
            {mode === "add"
              ? "Connect an external service. Its key is stored encrypted and never shown in full again."
              : "The stored key is shown masked. Leave it as it is to keep it, or enter a new key to replace it."}
          </DialogDescription>
        </DialogHeader>
        {/* Keyed by service so each opening starts from that service's values (or the defaults). */}
        <ServiceForm
          key={service?.id ?? "new"}
          screen={screen}
          service={service}
          onDone={() => {
            onOpenChange(false);
            onSaved?.();
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

function defaultValues(screen: ServiceScreen, service: PlatformService | null): PlatformServiceFormValues {
  if (service) {
    return {
      serviceName: service.serviceName,
      serviceKey: service.serviceKey,
      serviceUrl: service.serviceUrl ?? "",
      description: service.description ?? "",
      isEnabled: service.isEnabled,
    };
  }
  // A type select starts on its first type, the AI service; the free-text name starts empty.
  const firstType = serviceScreens[screen].types?.[0]?.value ?? "";
  return { serviceName: firstType, serviceKey: "", serviceUrl: "", description: "", isEnabled: true };
}

/** Focusing a field that holds a mask selects it, so typing replaces the mask instead of appending to it. */
const newAddressNeedsKey = "A new address needs its key entered again: the stored key is never sent to it.";

const selectIfMasked = (mask: string | null) => (event: FocusEvent<HTMLInputElement>) => {
  if (mask !== null && event.currentTarget.value === mask) event.currentTarget.select();
};

function ServiceForm({ screen, service, onDone }: { screen: ServiceScreen; service: PlatformService | null; onDone: () => void }) {
  const config = serviceScreens[screen];
  const mode = service ? "edit" : "add";
  const createMutation = useCreatePlatformService();
  const updateMutation = useUpdatePlatformService();
  const form = useForm<PlatformServiceFormValues>({
    resolver: zodResolver(config.schema),
    defaultValues: defaultValues(screen, service),
  });
  const serviceName = useWatch({ control: form.control, name: "serviceName" });
  const serviceUrl = useWatch({ control: form.control, name: "serviceUrl" });
  const serviceKey = useWatch({ control: form.control, name: "serviceKey" });
  const messaging = isMessagingService(serviceName);
  const pending = createMutation.isPending || updateMutation.isPending;

  // A service whose name is none of the types (made on the Admin Portal) keeps its name as an option.
  const typeOptions =
    config.types && service && !config.types.some((type) => type.value === service.serviceName)
      ? [...config.types, { value: service.serviceName, label: service.serviceName }]
      : config.types;

  async function onSubmit(values: PlatformServiceFormValues) {
    const body = {
      serviceName: values.serviceName,
      serviceKey: values.serviceKey,
      serviceUrl: values.serviceUrl || null,
      description: values.description || null,
      isEnabled: values.isEnabled,
    };
    try {
      const saved = service ? await updateMutation.mutateAsync({ id: service.id, body }) : await createMutation.mutateAsync(body);
      toast(savedToast(screen, mode, saved.serviceName));
      form.reset(defaultValues(screen, null));
      onDone();
    } catch (error) {
      applyServerErrors(form, error);
      toast(saveFailedToast(screen, mode, error));
    }
  }

  const keyMask = service ? service.serviceKey : null;
  // The server never sends a stored key to a new address: a changed URL needs its key typed again.
  const keyNeededAgain = service !== null && (serviceUrl ?? "") !== (service.serviceUrl ?? "") && serviceKey === keyMask;
  const urlMask = service?.serviceUrlIsSecret ? maskedSecretUrl : null;

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-4" aria-label={config.title[mode]}>
        <FormField
          control={form.control}
          name="serviceName"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{config.nameLabel}</FormLabel>
              {typeOptions ? (
                <FormSelect field={field} options={typeOptions} placeholder="Choose a service type" disabled={pending} />
              ) : (
                <FormControl>
                  <Input autoComplete="off" placeholder="e.g. OpenAI" {...field} />
                </FormControl>
              )}
              <FormMessage />
            </FormItem>
          )}
        />
        <LabeledField
          control={form.control}
          name="serviceKey"
          label={messaging ? messagingLabels.key : config.keyLabel}
          description={keyNeededAgain ? newAddressNeedsKey : undefined}
        >
          {(field) => (
            <Input
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="none"
              className="font-mono"
              {...field}
              onFocus={selectIfMasked(keyMask)}
            />
          )}
        </LabeledField>
        <LabeledField
          control={form.control}
          name="serviceUrl"
          label={messaging ? messagingLabels.url : config.urlLabel}
          description={messaging ? "Kept encrypted like the key and never shown again." : undefined}
        >
          {(field) =>
            messaging ? (
              <PasswordInput
                autoComplete="new-password"
                spellCheck={false}
                {...field}
                value={field.value ?? ""}
                onFocus={selectIfMasked(urlMask)}
              />
            ) : (
              <Input
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://"
                {...field}
                value={field.value ?? ""}
                onFocus={selectIfMasked(urlMask)}
              />
            )
          }
        </LabeledField>
        <LabeledField control={form.control} name="description" label={config.descriptionLabel}>
          {(field) => <Textarea rows={3} {...field} value={field.value ?? ""} />}
        </LabeledField>
        <FormField
          control={form.control}
          name="isEnabled"
          render={({ field }) => (
            <FormItem className="flex items-center justify-between gap-4 rounded-lg border p-3">
              <FormLabel className="cursor-pointer">{config.enabledLabel}</FormLabel>
              <FormControl>
                <Switch checked={field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} ref={field.ref} disabled={pending} />
              </FormControl>
            </FormItem>
          )}
        />
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline" disabled={pending}>
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : config.submit[mode]}
          </Button>
        </DialogFooter>
      </form>
    </Form>
  );
}
