import { useMutation } from "@tanstack/react-query";
import type { GeneratedAgenda } from "@shared/meetings";
import { apiJson } from "@/lib/api-client";

export interface DraftMeetingInput {
  title: string;
  date: string;
  endDate: string;
  location: string;
  status: "draft";
  companyId: number | null;
  createdBy: number;
}

/** POST /api/new-meeting → the id of a draft meeting (never listed) to generate an agenda for. */
export function createDraftMeeting(input: DraftMeetingInput): Promise<{ id: number }> {
  return apiJson<{ id: number }>("POST", "/api/new-meeting", input);
}

/** POST /api/meetings/:id/generate-agenda → `{items, source: "ai" | "template"}`. */
export function generateAgenda(meetingId: number): Promise<GeneratedAgenda> {
  return apiJson<GeneratedAgenda>("POST", `/api/meetings/${meetingId}/generate-agenda`);
}

/** Creates the draft, then asks for its agenda: two calls, the second needs the draft's id. Nothing cached changes. */
export function useGenerateAgenda() {
  return useMutation({
    mutationFn: async (input: DraftMeetingInput) => generateAgenda((await createDraftMeeting(input)).id),
  });
}
