import { z } from "zod";
import { generatedAgendaSchema, listedMeetingSchema, meetingDraftSchema, newMeetingSchema } from "../meetings";
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
  errors: { 502: "The AI service failed, or answered with something that is not an agenda" },
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
  summary: "A company's next meetings (at most ten), soonest first, for the dashboard",
  tag,
  access: { class: "company", by: "param", param: "companyId" },
  responses: { 200: z.array(listedMeetingSchema) },
});
