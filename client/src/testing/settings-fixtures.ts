import * as accountApi from "@shared/api/account";
import * as authApi from "@shared/api/auth";
import * as complianceApi from "@shared/api/compliance";
import type { AccountSession } from "@shared/account";
import type { User } from "@shared/auth";
import { preferenceDefaults, type Preferences } from "@shared/preferences";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { renderApp } from "@/testing/render";
import { server } from "@/testing/server";

/** The user's sessions as Settings → Security lists them: this one, and another. */
export const sessions: AccountSession[] = [
  { id: 11, device: "Chrome on macOS", createdAt: "2026-11-20T10:00:00.000Z", lastUsedAt: new Date().toISOString(), current: true },
  { id: 12, device: "Firefox on Linux", createdAt: "2026-11-01T10:00:00.000Z", lastUsedAt: "2026-11-21T10:00:00.000Z", current: false },
];

/** The signed-in user at /settings; the server keeps the switches and records what it was sent. */
export function renderSettings({ user = buildUser({ id: 7 }), preferences = preferenceDefaults as Preferences } = {}) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  let stored = { ...preferences };
  let current: User = user;
  server.use(
    handle(authApi.currentUser, () => current),
    handle(accountApi.getPreferences, () => stored, { params: { id: user.id } }),
    handle(
      accountApi.updatePreferences,
      ({ body }) => {
        sent.push({ method: "PUT", path: "preferences", body });
        stored = { ...stored, ...body };
        return stored;
      },
      { params: { id: user.id } },
    ),
    handle(accountApi.listSessions, () => sessions, { params: { id: user.id } }),
    handle(
      complianceApi.getCalendarFeed,
      ({ query }) => {
        const companyId = query.companyId ?? 0;
        return { url: feedUrl(user.id, companyId, "first-key"), companyId };
      },
      { params: { id: user.id } },
    ),
    handle(
      accountApi.updateProfile,
      ({ body }) => {
        sent.push({ method: "PATCH", path: "profile", body });
        current = { ...current, ...body, profileImageUrl: body.profileImageUrl || null };
        return current;
      },
      { params: { id: user.id } },
    ),
  );
  // The token only: the handlers above answer for the user, so a saved profile is what is read back.
  const rendered = renderApp({ path: "/settings", token: "settings-test-token" });
  return { ...rendered, sent, account: user };
}

export const feedUrl = (userId: number, companyId: number, key: string) =>
  `http://quorum.test/api/calendar-feed.ics?user=${userId}&company=${companyId}&key=${key}`;

/** What renderSettings hands the test, its user-event instance among it. */
export type SettingsView = ReturnType<typeof renderSettings>;
