import { z } from "zod";
import { agendaInputSchema, agendaSchema, meetingUpdateSchema } from "../agenda";
import { documentObjectSchema } from "../documents";
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
  summary: "A company's next meetings (at most ten), soonest first, for the dashboard",
  tag,
  access: { class: "company", by: "param", param: "companyId" },
  responses: { 200: z.array(listedMeetingSchema) },
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

export const updateMeeting = endpoint({
  method: "PATCH",
  path: "/api/meetings/:id",
  summary: "Confirms, cancels or reschedules a meeting (founders, admins); answers the meeting as a document",
  tag,
  access: { ...meetingById, permission: "manageMeeting" },
  body: meetingUpdateSchema,
  responses: { 200: documentObjectSchema },
  errors: { 409: "Confirming a cancelled or past meeting, or changing a cancelled one" },
});

export const boardPack = endpoint({
  method: "GET",
  path: "/api/meetings/:id/board-pack.pdf",
  summary: "The meeting's board pack: a cover, the agenda with page numbers, then each item's papers in agenda order, as one PDF",
  tag,
  access: meetingById,
  responses: {
    200: { contentType: "application/pdf", description: "The board pack (an attachment named after the meeting), with an ETag" },
    304: null,
  },
  errors: {
    429: "The caller already has a pack being built, the company's builds waiting are full, or the instance's builds and their short queue are full (with Retry-After)",
    503: "The pack could not be built, even without the papers too large to include, or a paper could not be read from storage; answered again without a new build for a minute (with Retry-After)",
  },
});
