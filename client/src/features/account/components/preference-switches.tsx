import { useId } from "react";
import type { PreferenceKey } from "@shared/preferences";
import { Switch } from "@/components/ui/switch";
import { usePreferences } from "@/lib/preferences/get-preferences";
import { useSetPreference } from "@/lib/preferences/update-preferences";
import { SettingsCard } from "@/features/account/components/settings-card";

export interface SwitchEntry {
  name: PreferenceKey;
  label: string;
  description: string;
}

export const notificationSwitches: SwitchEntry[] = [
  { name: "meetingReminders", label: "Meeting Reminders", description: "New meetings you are invited to, and a reminder a day before." },
  { name: "documentUpdates", label: "Document Updates", description: "New documents in your companies' libraries." },
  { name: "resolutionVoting", label: "Resolution Voting", description: "New resolutions, votes about to close, and outcomes." },
  { name: "boardMemberUpdates", label: "Board Member Updates", description: "Members joining and role changes." },
  { name: "emailDigest", label: "Email Digest", description: "A weekly summary by e-mail." },
];

export const displaySwitches: SwitchEntry[] = [
  { name: "darkMode", label: "Dark Mode", description: "A dark theme, on every device you sign in to." },
  { name: "compactView", label: "Compact View", description: "Tighter spacing, to see more at once." },
  { name: "autoSaveDrafts", label: "Auto-save Drafts", description: "Keep an unsent form on this device and offer it back." },
  { name: "showTooltips", label: "Show Tooltips", description: "Name icon-only buttons when you point at them." },
];

/**
 * A card of switches, each saved on the server as soon as it is flipped (and put back, with a toast,
 * if saving fails).
 */
export function PreferenceSwitches({ title, description, entries }: { title: string; description: string; entries: SwitchEntry[] }) {
  const { preferences, isLoaded } = usePreferences();
  const { setPreference } = useSetPreference();
  return (
    <SettingsCard title={title} description={description}>
      <ul className="grid divide-y">
        {entries.map((entry) => (
          <SwitchRow
            key={entry.name}
            entry={entry}
            checked={preferences[entry.name]}
            disabled={!isLoaded}
            onChange={(value) => setPreference(entry.name, value)}
          />
        ))}
      </ul>
    </SettingsCard>
  );
}

function SwitchRow({
  entry,
  checked,
  disabled,
  onChange,
}: {
  entry: SwitchEntry;
  checked: boolean;
  disabled: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <li className="flex items-center justify-between gap-4 py-3 first:pt-0 last:pb-0">
      <div className="grid min-w-0 gap-0.5">
        <label htmlFor={id} className="text-sm font-medium">
          {entry.label}
        </label>
        <p id={`${id}-description`} className="text-sm text-muted-foreground">
          {entry.description}
        </p>
      </div>
      <Switch id={id} checked={checked} disabled={disabled} onCheckedChange={onChange} aria-describedby={`${id}-description`} />
    </li>
  );
}
