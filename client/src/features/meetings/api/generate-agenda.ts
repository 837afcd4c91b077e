import { useMutation } from "@tanstack/react-query";
import * as api from "@shared/api/meetings";
import type { GeneratedAgenda, NewMeetingInput } from "@shared/meetings";
import { callApi } from "@/lib/api-client";

/** POST /api/new-meeting → the id of a draft meeting (never listed) to generate an agenda for. */
export function createDraftMeeting(input: NewMeetingInput): Promise<{ id: number }> {
  return callApi(api.createMeetingDraft, { body: input });
}

/** POST /api/meetings/:id/generate-agenda → `{items, source: "ai" | "template"}`. */
export function generateAgenda(meetingId: number): Promise<GeneratedAgenda> {
  return callApi(api.generateAgenda, { params: { id: meetingId } });
}

/** Creates the draft, then asks for its agenda: two calls, the second needs the draft's id. Nothing cached changes. */
export function useGenerateAgenda() {
  return useMutation({
    mutationFn: async (input: NewMeetingInput) => generateAgenda((await createDraftMeeting(input)).id),
  });
}
