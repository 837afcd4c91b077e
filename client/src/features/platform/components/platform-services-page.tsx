import { ArrowLeft, Plus, ShieldCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { can, canAdministerPlatform } from "@shared/permissions";
import { CheckingPermissions } from "@/components/checking-permissions";
import { ListQueryState } from "@/components/list-screen";
import { LoadingSpinner } from "@/components/loading-spinner";
import { PageHeader } from "@/components/page-header";
import { RequirePermission, type Refusal } from "@/components/require-permission";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useIsPlatformAdmin } from "@/lib/auth/check-platform-admin";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { usePlatformServices } from "@/features/platform/api/get-platform-services";
import { ServiceCards } from "@/features/platform/components/service-cards";
import { ServicesTable } from "@/features/platform/components/services-table";
import type { ServiceScreen } from "@/features/platform/lib/service-variants";
import { useServiceEditor } from "@/features/platform/lib/use-service-editor";

export interface PlatformServicesTab {
  value: string;
  label: string;
  content: ReactNode;
}

export interface PlatformServicesPageProps {
  /** Whose wording the dialogs and toasts use. */
  screen: ServiceScreen;
  title: string;
  description: string;
  /** How those who may not open the page are turned away. */
  refusal: Refusal;
  /** A 'Back to Dashboard' link above the page. */
  backToDashboard?: boolean;
  /**
   * Lets founders and admins open the page as well as platform admins; in place of the services (which
   * only platform admins may see or change) their Platform Settings tab shows this.
   */
  forCompanyAdmins?: ReactNode;
  /**
   * The tabs after Platform Settings, whose tab then holds the services as a table. Without them the page
   * is the services alone, as cards under the `notice`.
   */
  otherTabs?: readonly PlatformServicesTab[];
  notice?: ReactNode;
}

/**
 * The pages that manage the platform's services (Admin Portal, Admin Settings, Platform Settings). Nothing
 * below the permission check is rendered, so nothing is loaded, before the server has let the user in.
 */
export function PlatformServicesPage({
  screen,
  title,
  description,
  refusal,
  backToDashboard = false,
  forCompanyAdmins,
  otherTabs,
  notice,
}: PlatformServicesPageProps) {
  const { user } = useCurrentUser();
  const platform = useIsPlatformAdmin();
  const platformAdmin = canAdministerPlatform(platform);
  const companyAdmin = forCompanyAdmins !== undefined && can(user?.role, "editCompany");

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      {backToDashboard && (
        <Button variant="ghost" size="sm" asChild className="-ml-2 justify-self-start">
          <Link href="/">
            <ArrowLeft aria-hidden />
            Back to Dashboard
          </Link>
        </Button>
      )}
      <RequirePermission allowed={companyAdmin || platformAdmin} checking={!companyAdmin && platform.isPending} refusal={refusal}>
        {otherTabs ? (
          <>
            <PageHeader title={title} description={description} />
            <Tabs defaultValue="platform">
              <TabsList>
                <TabsTrigger value="platform">Platform Settings</TabsTrigger>
                {otherTabs.map((tab) => (
                  <TabsTrigger key={tab.value} value={tab.value}>
                    {tab.label}
                  </TabsTrigger>
                ))}
              </TabsList>
              {/* Mounted only while its tab is open, so the services load only then. */}
              <TabsContent value="platform">
                {platform.isPending ? <CheckingPermissions /> : platformAdmin ? <ServicesView screen={screen} /> : forCompanyAdmins}
              </TabsContent>
              {otherTabs.map((tab) => (
                <TabsContent key={tab.value} value={tab.value}>
                  {tab.content}
                </TabsContent>
              ))}
            </Tabs>
          </>
        ) : (
          <ServicesView screen={screen} page={{ title, description, notice }} />
        )}
      </RequirePermission>
    </div>
  );
}

/**
 * The services with their add/edit dialog and confirmed delete: as the whole page's cards when `page` is
 * given (its header then holds Add Service), else as a table in a 'Platform Services' section of a tab.
 */
function ServicesView({ screen, page }: { screen: ServiceScreen; page?: { title: string; description: string; notice: ReactNode } }) {
  const services = usePlatformServices();
  const editor = useServiceEditor(screen);
  const addService = (
    <Button onClick={editor.openAdd} className={page ? undefined : "self-start sm:self-auto"}>
      <Plus aria-hidden />
      Add Service
    </Button>
  );
  const list = (
    <ListQueryState
      query={{ data: services.data, isLoading: services.isPending, isError: services.isError }}
      loading={<LoadingSpinner label="Loading services" />}
      error={<>The services could not be loaded: {services.error?.message}</>}
    >
      {(loaded) =>
        page ? (
          <ServiceCards services={loaded} onAdd={editor.openAdd} onEdit={editor.openEdit} onRemove={editor.askToDelete} />
        ) : (
          <ServicesTable services={loaded} onEdit={editor.openEdit} onDelete={editor.askToDelete} />
        )
      }
    </ListQueryState>
  );

  if (page) {
    return (
      <>
        <PageHeader title={page.title} description={page.description} actions={addService} />
        {page.notice && (
          <p className="flex items-start gap-2 rounded-lg border border-primary/30 bg-primary/5 p-3 text-sm text-foreground">
            <ShieldCheck className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
            {page.notice}
          </p>
        )}
        {list}
        {editor.dialogs}
      </>
    );
  }
  const headingId = `${screen}-services-heading`;
  return (
    <section
      className="grid grid-cols-[minmax(0,1fr)] gap-4 rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-6"
      aria-labelledby={headingId}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-1">
          <h2 id={headingId} className="text-lg font-semibold">
            Platform Services
          </h2>
          <p className="text-sm text-muted-foreground">API keys of the services the platform uses. Keys are shown masked.</p>
        </div>
        {addService}
      </div>
      {list}
      {editor.dialogs}
    </section>
  );
}
