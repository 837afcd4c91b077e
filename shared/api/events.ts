import { endpoint } from "./endpoint";

const tag = "Live events";

export const openEventStream = endpoint({
  method: "GET",
  path: "/api/events",
  summary:
    "Server-sent events of what the caller may see: vote counts, decided resolutions, the caller's notifications, meetings and documents of the caller's companies. The session cookie is accepted as for downloads; Last-Event-ID resumes from the last 5 minutes",
  tag,
  access: { class: "own-user", by: "session" },
  responses: {
    200: {
      contentType: "text/event-stream",
      description:
        "Events `votes` {resolutionId, yes, no, abstain, total}, `resolution` {resolutionId, status}, `notification` {id}, `meeting` {meetingId}, `document` {documentId, change}; each with an id; a comment line every 15 s",
    },
  },
  errors: {
    400: "A Last-Event-ID that is not an event id",
    429: "Ten streams are already open on this session, or as many as one user may hold across their sessions (with Retry-After)",
  },
});
