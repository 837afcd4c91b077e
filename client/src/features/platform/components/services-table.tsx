import { Pencil, Trash2 } from "lucide-react";
import type { PlatformService } from "@shared/platform";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { keyPreview } from "@/features/platform/lib/service-variants";

const columns = ["Service", "Key", "URL", "Status"] as const;

/**
 * The services of the Admin Portal and Admin Settings as a table (Service, Key, URL, Status, Actions),
 * each key as its first 8 characters; an empty list is a row saying so.
 */
export function ServicesTable({
  services,
  onEdit,
  onDelete,
}: {
  services: readonly PlatformService[];
  onEdit: (service: PlatformService) => void;
  onDelete: (service: PlatformService) => void;
}) {
  return (
    // Wide tables scroll inside their frame on phones; the page itself never scrolls sideways.
    <div className="-mx-4 overflow-x-auto sm:mx-0">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">Platform services</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-2 font-medium">
                {column}
              </th>
            ))}
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {services.length === 0 ? (
            <tr>
              <td colSpan={5} className="px-4 py-8 text-center text-muted-foreground">
                No services configured yet.
              </td>
            </tr>
          ) : (
            services.map((service) => (
              <tr key={service.id} className="border-b last:border-b-0">
                <th scope="row" className="max-w-48 px-4 py-3 font-medium break-words">
                  {service.serviceName}
                </th>
                <td className="px-4 py-3 font-mono whitespace-nowrap">{keyPreview(service.serviceKey)}</td>
                <td className="max-w-56 truncate px-4 py-3" title={service.serviceUrl ?? undefined}>
                  {service.serviceUrl || <span className="text-muted-foreground">Not specified</span>}
                </td>
                <td className="px-4 py-3">
                  <Badge variant={service.isEnabled ? "success" : "secondary"}>{service.isEnabled ? "Enabled" : "Disabled"}</Badge>
                </td>
                <td className="px-4 py-3">
                  <div className="flex justify-end gap-1">
                    <Button variant="ghost" size="icon" onClick={() => onEdit(service)} aria-label={`Edit ${service.serviceName}`}>
                      <Pencil aria-hidden />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="text-destructive hover:text-destructive"
                      onClick={() => onDelete(service)}
                      aria-label={`Delete ${service.serviceName}`}
                    >
                      <Trash2 aria-hidden />
                    </Button>
                  </div>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
