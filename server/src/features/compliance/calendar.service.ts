import { and, eq, sql } from "drizzle-orm";
import * as api from "../../../../shared/api/compliance";
import { pathOf } from "../../../../shared/api/endpoint";
import { complianceStatusLabel, type CalendarFeed } from "../../../../shared/compliance";
import type { CalendarFeedAddress } from "../../../../shared/compliance-schemas";
import type { ServiceDeps } from "../../app-deps";
import { companies, memberships, users } from "../../db/schema";
import { HttpError, forbidden, notFound } from "../../http/errors";
import { assertSessionPassedSecondFactor, secondFactorStandingOf } from "../../http/guards";
import type { AuthContext } from "../../http/request-context";
import { buildCalendar, type CalendarEvent } from "../../integrations/calendar";
import { defaultMailSettings } from "../../integrations/mailer";
import { meetingEvent } from "../meetings/meetings.service";
import { complianceGroups } from "./compliance-rules";
import { loadComplianceRecord } from "./compliance.service";
import { calendarFeedSecret, isCalendarFeedSecret } from "./feed-secret";

type Deps = ServiceDeps<"db" | "clock">;

/** Rules not yet completed remind a week ahead. */
const dueAlarmDays = 7;

/**
 * A company's calendar: every meeting still to come (a cancelled one too, marked so: a subscribed calendar then
 * strikes it instead of keeping the copy it has), and every compliance rule's due date (an event whose
 * uid is the rule's id, so a subscribed calendar moves it when the date changes). Same reads as the
 * compliance call, so it costs a fixed number of queries too.
 */
export async function companyCalendar(deps: Deps, company: { id: number; name: string }): Promise<string> {
  const now = deps.clock.now();
  const record = await loadComplianceRecord(deps, company.id, now);
  const meetingsAhead: CalendarEvent[] = record.meetings
    .filter((meeting) => meeting.startsAt > now)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())
    .map(meetingEvent);
  const dueDates: CalendarEvent[] = complianceGroups(record, now)
    .flatMap((group) => group.items)
    .flatMap((item) => {
      if (!item.dueDate) return [];
      // A due date has no time of day: an all-day event on its date (UTC, as the rules count) that keeps no one busy.
      return [
        {
          uid: `${item.id}.company-${company.id}@quorum`,
          day: new Date(item.dueDate),
          summary: `${item.title} due`,
          description: `${complianceStatusLabel(item.status)}: ${item.description}`,
          free: true,
          ...(item.status === "completed" ? {} : { alarmDaysBefore: dueAlarmDays }),
        },
      ];
    });
  return buildCalendar([...meetingsAhead, ...dueDates], { stamp: now, name: `${company.name} (Quorum)` });
}

// --- The subscribed feed ---

type FeedDeps = ServiceDeps<"db" | "clock" | "appSecret" | "mail">;

/** The caller of the feed's address: the user, and whether their session passed a second factor. */
type FeedCaller = Pick<AuthContext, "user" | "secondFactorAt">;

/**
 * Which company a feed call is about: `?companyId=`, else the caller's active company; they must be a member, and
 * their session must have passed a second factor where the company requires one (the feed shows its meetings, as
 * its pages do).
 */
async function feedCompany({ db }: ServiceDeps<"db">, caller: FeedCaller, requested: number | undefined): Promise<number> {
  const { user } = caller;
  const companyId = requested ?? user.activeCompanyId;
  if (companyId == null) throw new HttpError(400, "Create or choose a company first");
  const [membership] = await db
    .select({ requiresSecondFactor: companies.requireSecondFactor })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(and(eq(memberships.userId, user.id), eq(memberships.companyId, companyId)));
  if (!membership) throw forbidden("You are not a member of this company");
  assertSessionPassedSecondFactor(membership.requiresSecondFactor, secondFactorStandingOf(caller));
  return companyId;
}

function feedUrl(deps: ServiceDeps<"appSecret" | "mail">, feed: { userId: number; companyId: number; version: number }): string {
  const appUrl = (deps.mail ?? defaultMailSettings).appUrl.replace(/\/+$/, "");
  // The secret rides in the query string: request logs print the path only.
  const address = { user: feed.userId, company: feed.companyId, key: calendarFeedSecret(feed, deps.appSecret) };
  return `${appUrl}${pathOf(api.subscribedCalendar, undefined, address)}`;
}

/** `GET /api/users/:id/calendar-feed`: the caller's feed address for one of their companies. */
export async function calendarFeed(deps: FeedDeps, caller: FeedCaller, requestedCompany: number | undefined): Promise<CalendarFeed> {
  const { user } = caller;
  const companyId = await feedCompany(deps, caller, requestedCompany);
  return { url: feedUrl(deps, { userId: user.id, companyId, version: user.calendarFeedVersion }), companyId };
}

/** `POST /api/users/:id/calendar-feed/rotate`: every feed address the caller was given stops working; answers the new one. */
export async function rotateCalendarFeed(deps: FeedDeps, caller: FeedCaller, requestedCompany: number | undefined): Promise<CalendarFeed> {
  const { user } = caller;
  const companyId = await feedCompany(deps, caller, requestedCompany);
  const [row] = await deps.db
    .update(users)
    .set({ calendarFeedVersion: sql`${users.calendarFeedVersion} + 1` })
    .where(eq(users.id, user.id))
    .returning({ version: users.calendarFeedVersion });
  if (!row) throw notFound();
  return { url: feedUrl(deps, { userId: user.id, companyId, version: row.version }), companyId };
}

/**
 * `GET /api/calendar-feed.ics?user=&company=&key=`: no session, the key is the authority. An address missing
 * one of the three is refused by its query's schema (400); anything else that is not a current feed of a
 * current member (a wrong or rotated key, a user who left the company, a member without a second factor of a
 * company that requires one) is 404, the same as an address that never existed.
 */
export async function subscribedCalendar(deps: FeedDeps, address: CalendarFeedAddress): Promise<string> {
  const { user: userId, company: companyId, key } = address;
  if (userId == null || companyId == null) throw notFound();
  const [row] = await deps.db
    .select({
      version: users.calendarFeedVersion,
      companyName: companies.name,
      // A feed is fetched with no session to ask, so here the account's own factor stands in for it; its address
      // is only given to a session that passed a second factor.
      barred: sql<boolean>`${companies.requireSecondFactor} and not ${users.secondFactor}`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)));
  if (!row || row.barred || !isCalendarFeedSecret(key, { userId, companyId, version: row.version }, deps.appSecret)) throw notFound();
  return companyCalendar(deps, { id: companyId, name: row.companyName });
}
