import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { PlatformService } from "@shared/platform";
import { LoadingSpinner } from "@/components/loading-spinner";
import { cn } from "@/lib/utils";

/**
 * The loading and error states of the services list, shared by the Admin Portal / Admin Settings
 * table and the Platform Settings cards; `children` renders the loaded list.
 */
export function ServicesQueryState({
  services,
  errorClassName,
  children,
}: {
  services: UseQueryResult<PlatformService[]>;
  errorClassName?: string;
  children: (services: PlatformService[]) => ReactNode;
}) {
  if (services.isPending) return <LoadingSpinner label="Loading services" />;
  if (services.isError) {
    return (
      <p role="alert" className={cn("text-sm text-destructive", errorClassName)}>
        The services could not be loaded: {services.error.message}
      </p>
    );
  }
  return children(services.data);
}
