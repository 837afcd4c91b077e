import { and, desc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import type { AppNotification, UnsubscribeTarget } from "../../../../shared/notifications";
import {
  notificationKinds,
  withDefaults,
  type NotificationKind,
  type PreferenceKey,
  type Preferences,
} from "../../../../shared/preferences";
import type { ServiceDeps } from "../../app-deps";
import type { Queryable } from "../../db/client";
import { companies, notifications, userPreferences, users } from "../../db/schema";
import { HttpError, notFound } from "../../http/errors";
import { switchLabels } from "./mail-layout";
import { enqueueMail, type QueuedMail } from "./outbox.service";
import { verifyUnsubscribeToken } from "./unsubscribe-token";

/** How long a read notification stays in the bell's list. */
const recentReadMs = 7 * 24 * 60 * 60 * 1000;
/** The most notifications the bell lists. */
const listLimit = 50;

export interface NotifyInput {
  kind: NotificationKind;
  companyId: number | null;
  /** User ids; duplicates are told once. Leave out whoever caused the event. */
  recipients: readonly number[];
  title: string;
  body?: string | null;
  /** A path inside the app, e.g. `/meetings/12`. */
  link?: string | null;
  /** When it happened (the injected clock); the database's time when absent. */
  at?: Date;
}

/**
 * Tells the recipients of an event, in the caller's transaction: an in-app notification (the bell) and an
 * e-mail in the outbox for each recipient whose switch for this kind is on (`notificationKinds` names the
 * switch; a switch never saved reads as its default). At most four statements whatever the number of recipients.
 * Answers the ids of the users told.
 */
export async function notify(db: Queryable, input: NotifyInput): Promise<number[]> {
  const [told] = await notifyEach(db, [input]);
  return told ?? [];
}

/**
 * `notify` for several events at once (a periodic job telling many people about many things): still at most four
 * statements in all, whatever the number of events or recipients. Answers, per event, the ids of the users told.
 */
export async function notifyEach(db: Queryable, inputs: readonly NotifyInput[]): Promise<number[][]> {
  const events = inputs.map((input) => ({ input, recipientIds: [...new Set(input.recipients)] }));
  const everyone = [...new Set(events.flatMap((event) => event.recipientIds))];
  if (everyone.length === 0) return events.map(() => []);
  const rows = await db
    .select({ id: users.id, email: users.email, settings: userPreferences.settings })
    .from(users)
    .leftJoin(userPreferences, eq(userPreferences.userId, users.id))
    .where(inArray(users.id, everyone));
  const byId = new Map(rows.map((row) => [row.id, { email: row.email, preferences: withDefaults(row.settings) }]));
  const companyIds = [...new Set(events.flatMap((event) => (event.input.companyId === null ? [] : [event.input.companyId])))];
  // E-mail has no session to ask for a second factor: a company that requires one is only named in its mails.
  const guarded =
    companyIds.length === 0
      ? new Map<number, string>()
      : new Map(
          (
            await db
              .select({ id: companies.id, name: companies.name })
              .from(companies)
              .where(and(inArray(companies.id, companyIds), eq(companies.requireSecondFactor, true)))
          ).map((company) => [company.id, company.name]),
        );

  const toldPerEvent: number[][] = [];
  const bell: (typeof notifications.$inferInsert)[] = [];
  const mail: QueuedMail[] = [];
  for (const { input, recipientIds } of events) {
    const key: PreferenceKey = notificationKinds[input.kind];
    const told = recipientIds.filter((id) => byId.get(id)?.preferences[key]).sort((a, b) => a - b);
    toldPerEvent.push(told);
    const body = input.body ?? null;
    const link = input.link ?? null;
    const guardedName = input.companyId === null ? undefined : guarded.get(input.companyId);
    const mailed = guardedName === undefined ? { title: input.title, body, link } : hiddenUpdate(guardedName);
    for (const userId of told) {
      bell.push({
        userId,
        companyId: input.companyId,
        kind: input.kind,
        title: input.title,
        body,
        link,
        ...(input.at ? { createdAt: input.at } : {}),
      });
      mail.push({
        userId,
        companyId: input.companyId,
        to: byId.get(userId)!.email,
        message: { type: "notification", kind: input.kind, ...mailed },
      });
    }
  }
  if (bell.length > 0) await db.insert(notifications).values(bell);
  await enqueueMail(db, mail);
  return toldPerEvent;
}

/** The switches of each of these users, a switch never saved as its default: one query. */
export async function preferencesOf(db: Queryable, userIds: readonly number[]): Promise<Map<number, Preferences>> {
  const ids = [...new Set(userIds)];
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ userId: userPreferences.userId, settings: userPreferences.settings })
          .from(userPreferences)
          .where(inArray(userPreferences.userId, ids));
  const saved = new Map(rows.map((row) => [row.userId, row.settings]));
  return new Map(ids.map((id) => [id, withDefaults(saved.get(id))]));
}

/**
 * What a notification of a company that requires a second factor says where no second factor was passed: a session
 * without one, and every e-mail (which has no session). No title, no names, no link.
 */
export function hiddenUpdate(companyName: string): { title: string; body: null; link: null } {
  return { title: `An update in ${companyName} — sign in with your second factor to see it`, body: null, link: null };
}

type NotificationRow = typeof notifications.$inferSelect;

/** The wire shape of a notification (never the row: the recipient's id stays on the server). */
function toNotification(row: NotificationRow): AppNotification {
  return {
    id: row.id,
    kind: row.kind,
    companyId: row.companyId,
    title: row.title,
    body: row.body,
    link: row.link,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The caller's unread notifications and those read in the last 7 days, newest first (at most 50): one query. For a
 * session that passed no second factor, those of a company that requires one say only that there is an update.
 */
export async function listRecent(
  { db, clock }: ServiceDeps<"db" | "clock">,
  caller: { userId: number; passedSecondFactor: boolean },
): Promise<AppNotification[]> {
  const readSince = new Date(clock.now().getTime() - recentReadMs);
  const rows = await db
    .select({ notification: notifications, companyName: companies.name, hidden: companies.requireSecondFactor })
    .from(notifications)
    .leftJoin(companies, eq(companies.id, notifications.companyId))
    .where(and(eq(notifications.userId, caller.userId), or(isNull(notifications.readAt), gte(notifications.readAt, readSince))))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(listLimit);
  return rows.map(({ notification, companyName, hidden }) =>
    hidden && !caller.passedSecondFactor && companyName !== null
      ? { ...toNotification(notification), ...hiddenUpdate(companyName) }
      : toNotification(notification),
  );
}

/** The recipient of a notification, for the own-thing guard; null when there is none. */
export async function notificationOwnerOf({ db }: ServiceDeps<"db">, id: number): Promise<number | null> {
  const [row] = await db.select({ userId: notifications.userId }).from(notifications).where(eq(notifications.id, id));
  return row?.userId ?? null;
}

/** Marks one of the user's notifications read; one already read keeps its first reading time. */
export async function markRead({ db, clock }: ServiceDeps<"db" | "clock">, userId: number, id: number): Promise<void> {
  const updated = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${clock.now()})` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (updated.length === 0) throw notFound("Notification not found");
}

/** Marks every unread notification of the user read, in one statement. */
export async function markAllRead({ db, clock }: ServiceDeps<"db" | "clock">, userId: number): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: clock.now() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}

export const invalidUnsubscribe = "This unsubscribe link is not valid";

/** The user and switch of a genuine token; 400 for anything else. */
function verifiedOr400(token: unknown, appSecret: string): { userId: number; key: PreferenceKey } {
  const verified = typeof token === "string" ? verifyUnsubscribeToken(token, appSecret) : null;
  if (!verified) throw new HttpError(400, invalidUnsubscribe);
  return verified;
}

/**
 * `GET /api/unsubscribe/preview?token=…`: which switch the link would turn off, for the page that asks before
 * doing it. Reads only; 400 for a token that is not genuine or whose user is gone.
 */
export async function unsubscribePreview({ db, appSecret }: ServiceDeps<"db" | "appSecret">, token: unknown): Promise<UnsubscribeTarget> {
  const verified = verifiedOr400(token, appSecret);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, verified.userId));
  if (!user) throw new HttpError(400, invalidUnsubscribe);
  return { key: verified.key, label: switchLabels[verified.key] };
}

/**
 * `POST /api/unsubscribe`: turns off the switch the signed token names for its user, keeping their other
 * switches (one upsert). Answers the switch turned off. Only ever on a POST: mail scanners and link
 * previews open GET links, which must change nothing.
 */
export async function unsubscribe(
  { db, clock, appSecret }: ServiceDeps<"db" | "clock" | "appSecret">,
  token: unknown,
): Promise<UnsubscribeTarget> {
  const verified = verifiedOr400(token, appSecret);
  const off = { [verified.key]: false };
  const now = clock.now();
  const result = await db.execute(sql`
    insert into ${userPreferences} (user_id, settings, updated_at)
    select ${users.id}, ${JSON.stringify(off)}::jsonb, ${now.toISOString()}::timestamptz from ${users} where ${users.id} = ${verified.userId}
    on conflict (user_id) do update set settings = ${userPreferences.settings} || excluded.settings, updated_at = excluded.updated_at
    returning user_id`);
  const written = (result as unknown as { rows: unknown[] }).rows;
  if (written.length === 0) throw new HttpError(400, invalidUnsubscribe);
  return { key: verified.key, label: switchLabels[verified.key] };
}
