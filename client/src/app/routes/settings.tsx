import { Suspense, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { loadOnDemand, WhenLoaded } from "@/lib/load-on-demand";
import { ProfileSettings } from "@/features/account/components/profile-settings";

// Each part below is drawn by WhenLoaded once its code is here, nothing until then: a Suspense fallback would hold it back
// until 300 ms after it showed. The Suspense boundaries stay for a download asked for again after a failure.
// The tabs not shown first load when one is first opened (or pointed at, so the chunk is usually there by the click).
// Each tab is handed on alone: loadOnDemand would read its props from every export of the module.
const loadOtherTabs = () => import("@/app/settings-tabs");
const SecurityTab = loadOnDemand(() => loadOtherTabs().then((tabs) => ({ SecurityTab: tabs.SecurityTab })), "SecurityTab");
const NotificationsTab = loadOnDemand(
  () => loadOtherTabs().then((tabs) => ({ NotificationsTab: tabs.NotificationsTab })),
  "NotificationsTab",
);
const PreferencesTab = loadOnDemand(() => loadOtherTabs().then((tabs) => ({ PreferencesTab: tabs.PreferencesTab })), "PreferencesTab");
// The Leave company card, below the profile form, loads after it: its confirmation dialog is not needed to paint the profile.
const LeaveCompanyCard = loadOnDemand(() => import("@/features/companies/components/leave-company-card"), "LeaveCompanyCard");
const prefetchOtherTabs = () => {
  SecurityTab.preload();
  NotificationsTab.preload();
  PreferencesTab.preload();
};

type SettingsTab = "profile" | "security" | "notifications" | "preferences";
const tabs: [SettingsTab, string][] = [
  ["profile", "Profile"],
  ["security", "Security"],
  ["notifications", "Notifications"],
  ["preferences", "Preferences"],
];

/** /settings: the signed-in user's own profile, password and sessions, and switches. */
export function SettingsPage() {
  const { user } = useCurrentUser();
  const [tab, setTab] = useState<SettingsTab>("profile");
  if (!user) return null;
  return (
    <div className="grid gap-6">
      <PageHeader title="Settings" description="Your profile, security and how Quorum works for you." />
      <Tabs value={tab} onValueChange={(value) => setTab(value as SettingsTab)} className="min-w-0">
        {/* Two by two on a phone, where the four names do not fit on one line. */}
        <TabsList
          aria-label="Settings sections"
          className="grid h-auto w-full grid-cols-2 gap-1 sm:flex sm:h-10 sm:w-fit"
          onPointerOver={prefetchOtherTabs}
          onFocus={prefetchOtherTabs}
        >
          {tabs.map(([value, label]) => (
            <TabsTrigger key={value} value={value} className="py-1.5">
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="profile" className="grid gap-6">
          {/* Keyed by the user, so the form starts from the saved profile after a change elsewhere. */}
          <ProfileSettings key={user.id} user={user} />
          {user.companyId != null && (
            <Suspense fallback={null}>
              <WhenLoaded
                key={user.companyId}
                component={LeaveCompanyCard}
                placeholder={null}
                props={{ companyId: user.companyId, userId: user.id }}
              />
            </Suspense>
          )}
        </TabsContent>
        <TabsContent value="security">
          <Suspense fallback={null}>
            <WhenLoaded component={SecurityTab} placeholder={null} props={{ user }} />
          </Suspense>
        </TabsContent>
        <TabsContent value="notifications" className="grid gap-6">
          <Suspense fallback={null}>
            <WhenLoaded component={NotificationsTab} placeholder={null} props={{ user }} />
          </Suspense>
        </TabsContent>
        <TabsContent value="preferences">
          <Suspense fallback={null}>
            <WhenLoaded component={PreferencesTab} placeholder={null} />
          </Suspense>
        </TabsContent>
      </Tabs>
    </div>
  );
}
