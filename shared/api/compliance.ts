import { z } from "zod";
import { calendarFeedAddressSchema, calendarFeedQuerySchema, calendarFeedSchema, complianceGroupSchema } from "../compliance-schemas";
import { endpoint } from "./endpoint";

const tag = "Compliance";
const byCompany = { class: "company", by: "param", param: "companyId" } as const;
/** The caller's own feed only (anyone else's: 403); the company must be one of theirs (403 otherwise). */
const ownFeed = { class: "own-user", by: "param", param: "id" } as const;
const calendar = (description: string) => ({ contentType: "text/calendar", description });

export const getCompliance = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/compliance",
  summary: "A company's compliance health: the Meetings, Documents and Resolutions groups, in that order",
  tag,
  access: byCompany,
  responses: { 200: z.array(complianceGroupSchema) },
});

export const complianceCalendar = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/compliance.ics",
  summary: "A company's calendar to download: its meetings to come and every compliance rule's due date",
  tag,
  access: byCompany,
  responses: { 200: calendar("An iCalendar file (compliance-<companyId>.ics, as an attachment)") },
});

export const getCalendarFeed = endpoint({
  method: "GET",
  path: "/api/users/:id/calendar-feed",
  summary: "The caller's private address of a company's calendar (`companyId`, else the active company)",
  tag,
  access: ownFeed,
  query: calendarFeedQuerySchema,
  responses: { 200: calendarFeedSchema },
});

export const rotateCalendarFeed = endpoint({
  method: "POST",
  path: "/api/users/:id/calendar-feed/rotate",
  summary: "Stop every calendar feed address the caller was given; answers the new one for the company",
  tag,
  access: ownFeed,
  query: calendarFeedQuerySchema,
  responses: { 200: calendarFeedSchema },
});

export const subscribedCalendar = endpoint({
  method: "GET",
  path: "/api/calendar-feed.ics",
  summary: "A subscribed company calendar: no session, the secret key in the address is the authority",
  tag,
  access: { class: "public" },
  query: calendarFeedAddressSchema,
  responses: { 200: calendar("An iCalendar feed of the company's meetings to come and compliance due dates") },
  errors: { 404: "Not a current feed: a wrong or rotated key, or a user who is no longer a member (the same as no feed at all)" },
});
