import { LoadingSpinner } from "@/components/loading-spinner";

/** Shown while the server has not yet answered whether the user is a platform admin. */
export function CheckingPermissions() {
  return <LoadingSpinner label="Checking permissions" />;
}
