import type { User } from "@shared/auth";
import { CalendarFeedCard } from "@/features/account/components/calendar-feed-card";
import { displaySwitches, notificationSwitches, PreferenceSwitches } from "@/features/account/components/preference-switches";
import { SecuritySettings } from "@/features/account/components/security-settings";
import { PasskeySettings } from "@/features/auth/components/passkey-settings";
import { TotpSettings } from "@/features/auth/components/totp-settings";

// The Settings tabs not shown first. Settings loads them when one is first opened: the profile paints without their
// forms, dialogs and passkey code.

export function SecurityTab({ user }: { user: User }) {
  return (
    <SecuritySettings userId={user.id}>
      <TotpSettings enabled={user.secondFactor} />
      <PasskeySettings />
    </SecuritySettings>
  );
}

export function NotificationsTab({ user }: { user: User }) {
  return (
    <>
      <PreferenceSwitches
        title="Notifications"
        description="What Quorum tells you about, in the bell and by e-mail."
        entries={notificationSwitches}
      />
      <CalendarFeedCard userId={user.id} />
    </>
  );
}

export function PreferencesTab() {
  return <PreferenceSwitches title="Preferences" description="How Quorum looks and behaves for you." entries={displaySwitches} />;
}
