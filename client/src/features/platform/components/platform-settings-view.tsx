import { KeyRound, Pencil, Plus, ServerCog, ShieldCheck, Trash2 } from "lucide-react";
import { isMessagingService, type PlatformService } from "@shared/platform";
import { PageHeader } from "@/components/page-header";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "@/components/ui/card";
import { formatLongDate } from "@/lib/format";
import { usePlatformServices } from "@/features/platform/api/get-platform-services";
import { ServicesQueryState } from "@/features/platform/components/services-query-state";
import { messagingLabels } from "@/features/platform/lib/service-variants";
import { useServiceEditor } from "@/features/platform/lib/use-service-editor";

const screen = "platform-settings" as const;

/** /platform-settings for a platform admin: the services as cards, the add/edit dialog and removal. */
export function PlatformSettingsView() {
  const services = usePlatformServices();
  const editor = useServiceEditor(screen, { confirmLabel: "Remove" });

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      <PageHeader
        title="Platform Settings"
        description="The external services Quorum uses: AI, e-mail, messaging and storage."
        actions={
          <Button onClick={editor.openAdd}>
            <Plus aria-hidden />
            Add Service
          </Button>
        }
      />

      <p className="flex items-start gap-2 rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm text-foreground">
        <ShieldCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        These settings are for platform administrators only. Keys are stored encrypted and only ever shown masked.
      </p>

      <ServicesQueryState services={services} errorClassName="rounded-lg border border-destructive/40 p-4">
        {(list) =>
          list.length === 0 ? (
            <Card className="items-center px-6 text-center">
              <ServerCog className="size-10 text-muted-foreground" aria-hidden />
              <div className="grid gap-1">
                <h2 className="text-lg font-semibold">No Services Configured</h2>
                <p className="text-sm text-muted-foreground">Add the AI, e-mail, messaging or storage service the platform should use.</p>
              </div>
              <Button onClick={editor.openAdd}>
                <Plus aria-hidden />
                Add First Service
              </Button>
            </Card>
          ) : (
            <ul className="grid gap-4 md:grid-cols-2" aria-label="Services">
              {list.map((service) => (
                <li key={service.id} className="min-w-0">
                  <ServiceCard service={service} onEdit={() => editor.openEdit(service)} onRemove={() => editor.askToDelete(service)} />
                </li>
              ))}
            </ul>
          )
        }
      </ServicesQueryState>

      {editor.dialogs}
    </div>
  );
}

function ServiceCard({ service, onEdit, onRemove }: { service: PlatformService; onEdit: () => void; onRemove: () => void }) {
  const messaging = isMessagingService(service.serviceName);
  return (
    <Card className="h-full gap-4" data-testid="service-card">
      <CardHeader>
        <div className="flex items-start justify-between gap-3">
          <h2 className="min-w-0 text-lg leading-tight font-semibold break-words">{service.serviceName}</h2>
          <Badge variant={service.isEnabled ? "success" : "secondary"}>{service.isEnabled ? "Enabled" : "Disabled"}</Badge>
        </div>
        <CardDescription className="break-words">{service.description || "No description provided"}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        <dl className="grid gap-2 text-sm">
          <div className="grid gap-0.5">
            <dt className="font-medium text-muted-foreground">{service.serviceUrlIsSecret || messaging ? "Auth Token" : "URL"}</dt>
            <dd className="break-all">{service.serviceUrl || "Not specified"}</dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="font-medium text-muted-foreground">{messaging ? messagingLabels.key : "API Key"}</dt>
            <dd className="flex items-center gap-1.5 font-mono">
              <KeyRound className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
              {service.serviceKey}
            </dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="font-medium text-muted-foreground">Last updated</dt>
            <dd>
              <time dateTime={service.updatedAt}>{formatLongDate(service.updatedAt)}</time>
            </dd>
          </div>
        </dl>
      </CardContent>
      <CardFooter className="gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${service.serviceName}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
        <Button
          variant="outline"
          size="sm"
          className="text-destructive hover:text-destructive"
          onClick={onRemove}
          aria-label={`Remove ${service.serviceName}`}
        >
          <Trash2 aria-hidden />
          Remove
        </Button>
      </CardFooter>
    </Card>
  );
}
