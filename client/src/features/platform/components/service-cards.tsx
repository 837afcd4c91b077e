import { KeyRound, Pencil, Plus, ServerCog, Trash2 } from "lucide-react";
import { isMessagingService, type PlatformService } from "@shared/platform";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from "@/components/ui/card";
import { formatLongDate } from "@/lib/format";
import { messagingLabels } from "@/features/platform/lib/service-variants";

/** The services of Platform Settings as cards, or, when there is none, a card inviting the first. */
export function ServiceCards({
  services,
  onAdd,
  onEdit,
  onRemove,
}: {
  services: readonly PlatformService[];
  onAdd: () => void;
  onEdit: (service: PlatformService) => void;
  onRemove: (service: PlatformService) => void;
}) {
  if (services.length === 0) {
    return (
      <Card className="items-center px-6 text-center">
        <ServerCog className="size-10 text-muted-foreground" aria-hidden />
        <div className="grid gap-1">
          <h2 className="text-lg font-semibold">No Services Configured</h2>
          <p className="text-sm text-muted-foreground">Add the AI, e-mail, messaging or storage service the platform should use.</p>
        </div>
        <Button onClick={onAdd}>
          <Plus aria-hidden />
          Add First Service
        </Button>
      </Card>
    );
  }
  return (
    <ul className="grid gap-4 md:grid-cols-2" aria-label="Services">
      {services.map((service) => (
        <li key={service.id} className="min-w-0">
          <ServiceCard service={service} onEdit={() => onEdit(service)} onRemove={() => onRemove(service)} />
        </li>
      ))}
    </ul>
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
