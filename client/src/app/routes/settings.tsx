import { useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { displaySwitches, notificationSwitches, PreferenceSwitches } from "@/features/account/components/preference-switches";
import { CalendarFeedCard } from "@/features/account/components/calendar-feed-card";
import { ProfileSettings } from "@/features/account/components/profile-settings";
import { SecuritySettings } from "@/features/account/components/security-settings";
import { TotpSettings } from "@/features/auth/components/totp-settings";
import { PasskeySettings } from "@/features/auth/components/passkey-settings";
import { LeaveCompanyCard } from "@/features/companies/components/leave-company-card";

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
        <TabsList aria-label="Settings sections" className="grid h-auto w-full grid-cols-2 gap-1 sm:flex sm:h-10 sm:w-fit">
          {tabs.map(([value, label]) => (
            <TabsTrigger key={value} value={value} className="py-1.5">
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="profile" className="grid gap-6">
          {/* Keyed by the user, so the form starts from the saved profile after a change elsewhere. */}
          <ProfileSettings key={user.id} user={user} />
          {user.companyId != null && <LeaveCompanyCard key={user.companyId} companyId={user.companyId} userId={user.id} />}
        </TabsContent>
        <TabsContent value="security">
          <SecuritySettings userId={user.id}>
            <TotpSettings enabled={user.secondFactor} />
            <PasskeySettings />
          </SecuritySettings>
        </TabsContent>
        <TabsContent value="notifications" className="grid gap-6">
          <PreferenceSwitches
            title="Notifications"
            description="What Quorum tells you about, in the bell and by e-mail."
            entries={notificationSwitches}
          />
          <CalendarFeedCard userId={user.id} />
        </TabsContent>
        <TabsContent value="preferences">
          <PreferenceSwitches title="Preferences" description="How Quorum looks and behaves for you." entries={displaySwitches} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
