import { z } from "zod";
import { meetingUpdateSchema } from "../agenda";
import { documentObjectSchema } from "../documents";
import {
  actionItemSchema,
  actionItemsQuerySchema,
  attendanceInputSchema,
  attendanceSchema,
  createActionItemSchema,
  meetingVoteInputSchema,
  minutesApprovalInputSchema,
  minutesDraftInputSchema,
  minutesDraftSchema,
  minutesSchema,
  minutesTextInputSchema,
  updateActionItemSchema,
} from "../meeting-record";
import { resolutionDetailsSchema } from "../resolutions";
import { endpoint } from "./endpoint";

// A meeting's record: its lifecycle (confirm, cancel, reschedule), attendance, a show of hands, minutes, action items
// and the board pack. Record writes are for founders, admins and the meeting's creator (checked by the service against
// the meeting's creator); the lifecycle is for founders and admins.

const tag = "Meeting record";
const meetingById = { class: "thing", thing: "meeting", param: "id" } as const;
const keeperOnly = "The caller is not a founder, an admin or the meeting's creator";
const approvedMinutes = "The minutes are approved: nothing about them changes";

export const getAttendance = endpoint({
  method: "GET",
  path: "/api/meetings/:id/attendance",
  summary: "Who attended a meeting (participants not recorded are absent), its guests and chair, and whether it was quorate",
  tag,
  access: meetingById,
  responses: { 200: attendanceSchema },
});

export const recordAttendance = endpoint({
  method: "PUT",
  path: "/api/meetings/:id/attendance",
  summary: "Records a meeting's attendance, guests and chair in one transaction (founders, admins and the meeting's creator)",
  tag,
  access: meetingById,
  body: attendanceInputSchema,
  responses: { 200: attendanceSchema },
  errors: {
    400: "An attendee who is not a participant, one named twice, or a chair not recorded present",
    403: keeperOnly,
    409: "The meeting is cancelled or its minutes are approved",
  },
});

export const recordMeetingVote = endpoint({
  method: "POST",
  path: "/api/resolutions/:id/meeting-vote",
  summary:
    "Records a show of hands on a pending resolution in a meeting of its company and decides it at once; online votes of voters not listed stand",
  tag,
  access: { class: "thing", thing: "resolution", param: "id", by: "service" },
  body: meetingVoteInputSchema,
  responses: { 200: resolutionDetailsSchema },
  errors: {
    400: "A voter not recorded present or remote at the meeting, not eligible, or listed twice; a meeting of another company",
    403: keeperOnly,
    409: "The resolution is already decided",
  },
});

export const getMinutes = endpoint({
  method: "GET",
  path: "/api/meetings/:id/minutes",
  summary: "A meeting's minutes and where they stand (a draft's text only for those who keep the record)",
  tag,
  access: meetingById,
  responses: { 200: minutesSchema },
});

export const draftMinutes = endpoint({
  method: "POST",
  path: "/api/meetings/:id/minutes/draft",
  summary:
    "(Re)drafts the minutes from the meeting's record; with improve, the AI rewords them and the server keeps its version only if every fact is unchanged",
  tag,
  access: meetingById,
  body: minutesDraftInputSchema,
  responses: { 200: minutesDraftSchema },
  errors: {
    403: keeperOnly,
    409: "The minutes have been circulated or approved",
    429: "With improve: the company's AI calls for the hour are used up (with Retry-After)",
  },
});

export const editMinutes = endpoint({
  method: "PUT",
  path: "/api/meetings/:id/minutes",
  summary: "Saves the text of draft or circulated minutes",
  tag,
  access: meetingById,
  body: minutesTextInputSchema,
  responses: { 200: minutesSchema },
  errors: { 400: "Empty, or longer than 200,000 characters", 403: keeperOnly, 409: approvedMinutes },
});

export const circulateMinutes = endpoint({
  method: "POST",
  path: "/api/meetings/:id/minutes/circulate",
  summary: "Circulates draft minutes to the meeting's participants (a notification and an e-mail each)",
  tag,
  access: meetingById,
  responses: { 200: minutesSchema },
  errors: { 403: keeperOnly, 409: "No minutes yet, or they are already circulated or approved" },
});

export const approveMinutes = endpoint({
  method: "POST",
  path: "/api/meetings/:id/minutes/approve",
  summary: "Approves circulated minutes: by a resolution of the board (approved when it is), or at once by the chair's signature",
  tag,
  access: meetingById,
  body: minutesApprovalInputSchema,
  responses: { 200: minutesSchema },
  errors: {
    403: keeperOnly,
    409: "The minutes are not circulated, already approved, or already before the board as a resolution",
    503: "The PDF of the approved minutes could not be made; nothing was approved (with Retry-After)",
  },
});

export const companyActionItems = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/action-items",
  summary: "A company's action items, overdue and soonest due first; by owner (me or a member's id) and status",
  tag,
  access: { class: "company", by: "param", param: "companyId" },
  query: actionItemsQuerySchema,
  responses: { 200: z.array(actionItemSchema) },
});

export const meetingActionItems = endpoint({
  method: "GET",
  path: "/api/meetings/:id/action-items",
  summary: "The action items a meeting gave, soonest due first",
  tag,
  access: meetingById,
  responses: { 200: z.array(actionItemSchema) },
});

export const createActionItem = endpoint({
  method: "POST",
  path: "/api/meetings/:id/action-items",
  summary: "Adds an action item to a meeting (founders, admins and the meeting's creator)",
  tag,
  access: meetingById,
  body: createActionItemSchema,
  responses: { 201: actionItemSchema },
  errors: { 400: "An owner who is not a member, or a due date before the meeting", 403: keeperOnly },
});

export const updateActionItem = endpoint({
  method: "PATCH",
  path: "/api/action-items/:id",
  summary: "Changes an action item: its owner may mark it done or open; founders and admins may change any field",
  tag,
  access: { class: "thing", thing: "actionItem", param: "id" },
  body: updateActionItemSchema,
  responses: { 200: actionItemSchema },
  errors: { 400: "An owner who is not a member, or a due date before the meeting", 403: "Neither its owner nor a founder or admin" },
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
