import { useEffect } from "react";
import { useLocation } from "wouter";
import type { User } from "@shared/auth";
import { isCompanyAdmin } from "@shared/roles";
import { PageTitle } from "@/components/page-title";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { toast } from "@/components/ui/use-toast";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { useCompanySettings } from "@/features/companies/api/get-company-settings";
import { CompanyGeneralForm } from "@/features/companies/components/company-general-form";
import { TeamMembers } from "@/features/companies/components/team-members";

/** /company-settings: founders and admins only; anyone else goes to / with 'Access Denied' (spec §2, §6, §8). */
export function CompanySettingsPage() {
  const { user } = useCurrentUser();
  const allowed = isCompanyAdmin(user?.role);
  const [, navigate] = useLocation();

  useEffect(() => {
    if (!user || allowed) return;
    toast({ title: "Access Denied", description: "You don't have permission to access company settings.", variant: "destructive" });
    navigate("/", { replace: true });
  }, [user, allowed, navigate]);

  if (!user || !allowed) return null;
  return <CompanySettings user={user} />;
}

/** The page itself; its data is asked for only once the user is let in. */
function CompanySettings({ user }: { user: User }) {
  const settings = useCompanySettings();
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <PageTitle>Company Settings</PageTitle>
        <p className="text-sm text-muted-foreground">Your company's profile and who sits on its board.</p>
      </div>

      {settings.isPending ? (
        <div className="grid gap-4" aria-busy="true" aria-label="Loading company settings">
          <Skeleton className="h-10 w-64" />
          <Skeleton className="h-96 rounded-xl" />
        </div>
      ) : settings.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Could not load the company settings. Please reload the page.
        </p>
      ) : (
        <Tabs defaultValue="general">
          <TabsList>
            <TabsTrigger value="general">General</TabsTrigger>
            <TabsTrigger value="team">Team Members</TabsTrigger>
          </TabsList>
          <TabsContent value="general">
            <Card>
              <CardContent>
                <CompanyGeneralForm key={settings.data.company.id} company={settings.data.company} />
              </CardContent>
            </Card>
          </TabsContent>
          <TabsContent value="team">
            <TeamMembers
              companyId={settings.data.company.id}
              members={settings.data.members}
              invitations={settings.data.invitations ?? []}
              actor={{ id: user.id, role: user.role }}
            />
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
