// Free of zod on purpose: the signed-in first load reads these (the theme and the switches) and must not
// download the validation library. The request's schema is in ./preferences-update.

/**
 * A user's switches in Settings, saved on the server so they follow the user to another device. Each
 * notification switch silences one family of notifications (in the bell and by e-mail); the display
 * switches change how the app looks and behaves for that user.
 */
export const preferenceDefaults = {
  // Notifications
  meetingReminders: true,
  documentUpdates: true,
  resolutionVoting: true,
  boardMemberUpdates: false,
  emailDigest: true,
  // Preferences
  darkMode: false,
  compactView: false,
  autoSaveDrafts: true,
  showTooltips: true,
} as const satisfies Record<string, boolean>;

export type PreferenceKey = keyof typeof preferenceDefaults;
export type Preferences = Record<PreferenceKey, boolean>;
export const preferenceKeys = Object.keys(preferenceDefaults) as PreferenceKey[];

/** `PUT /api/users/:id/preferences`: any of the switches; an absent one keeps its value (checked by ./preferences-update). */
export type PreferencesUpdate = Partial<Preferences>;

/** Stored switches over the defaults: a key never saved, or no longer known, reads as its default. */
export function withDefaults(stored: Partial<Record<string, unknown>> | null | undefined): Preferences {
  const result = { ...preferenceDefaults } as Preferences;
  for (const key of preferenceKeys) {
    const value = stored?.[key];
    if (typeof value === "boolean") result[key] = value;
  }
  return result;
}

/** The notification kinds and the switch that silences each. */
export const notificationKinds = {
  meetingScheduled: "meetingReminders",
  meetingReminder: "meetingReminders",
  /** Confirmed, moved or cancelled. */
  meetingChanged: "meetingReminders",
  /** An action item of a meeting falls due tomorrow (to its owner). */
  actionItemDue: "meetingReminders",
  /** A meeting's minutes sent to its participants to read before approval. */
  minutesCirculated: "meetingReminders",
  /** A week before the board's retention setting deletes a director's notes on a meeting's papers. */
  notesDeletionSoon: "meetingReminders",
  documentUploaded: "documentUpdates",
  resolutionCreated: "resolutionVoting",
  voteClosingSoon: "resolutionVoting",
  resolutionDecided: "resolutionVoting",
  /** A written resolution the director has not signed lapses in 3 days, or in 1 day. */
  writtenSignatureDue: "resolutionVoting",
  /** The proposer, a founder or an admin asks a director to sign a written resolution. */
  writtenSignatureNudge: "resolutionVoting",
  memberAdded: "boardMemberUpdates",
  roleChanged: "boardMemberUpdates",
} as const satisfies Record<string, PreferenceKey>;
export type NotificationKind = keyof typeof notificationKinds;
