import { z } from "zod";
import { agendaInputSchema, agendaSchema } from "../agenda";
import { generatedAgendaSchema, meetingDraftSchema, newMeetingSchema, upcomingMeetingSchema } from "../meetings";
import { endpoint } from "./endpoint";

const tag = "Meetings";
const meetingById = { class: "thing", thing: "meeting", param: "id" } as const;

export const createMeetingDraft = endpoint({
  method: "POST",
  path: "/api/new-meeting",
  summary: "A draft meeting in the caller's active company to generate an agenda for (never listed; gone after a day)",
  tag,
  access: { class: "company", by: "active", permission: "scheduleMeeting" },
  body: newMeetingSchema,
  responses: { 201: meetingDraftSchema },
});

export const generateAgenda = endpoint({
  method: "POST",
  path: "/api/meetings/:id/generate-agenda",
  summary: "Agenda items for a meeting or draft: the AI's when an AI service is configured, else the standard template",
  tag,
  access: { ...meetingById, permission: "scheduleMeeting" },
  responses: { 200: generatedAgendaSchema },
  errors: {
    429: "The company's AI calls for the hour are used up (with Retry-After)",
    502: "The AI service failed, or answered with something that is not an agenda",
  },
});

export const meetingCalendar = endpoint({
  method: "GET",
  path: "/api/meetings/:id/calendar.ics",
  summary: "A meeting as a calendar event to download (a draft is no meeting yet: 404)",
  tag,
  access: meetingById,
  responses: { 200: { contentType: "text/calendar", description: "An iCalendar file (meeting-<id>.ics, as an attachment)" } },
});

export const upcomingMeetings = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/meetings/upcoming",
  summary:
    "A company's next meetings (at most ten), soonest first, for the dashboard; `papersChanged`: one of its agenda papers changed since the caller read it",
  tag,
  access: { class: "company", by: "param", param: "companyId" },
  responses: { 200: z.array(upcomingMeetingSchema) },
});

export const getAgenda = endpoint({
  method: "GET",
  path: "/api/meetings/:id/agenda",
  summary: "A meeting's agenda items in order, each with its presenter, length, papers, resolutions and start time",
  tag,
  access: meetingById,
  responses: { 200: agendaSchema },
});

export const replaceAgenda = endpoint({
  method: "PUT",
  path: "/api/meetings/:id/agenda",
  summary:
    "Replaces a meeting's agenda in one transaction (founders, admins and the meeting's creator); the array order is the agenda order",
  tag,
  access: meetingById,
  body: agendaInputSchema,
  responses: { 200: agendaSchema },
  errors: {
    400: "More than 50 items, a duration outside 1–480 minutes, an item named twice, or a presenter who is not a member",
    403: "The caller is not a founder, an admin or the meeting's creator",
    404: "A document or resolution that does not exist or belongs to another company",
  },
});
