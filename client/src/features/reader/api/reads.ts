import * as api from "@shared/api/reading";
import { callApi } from "@/lib/api-client";

/** POST /api/documents/:id/reads: pages of one version the caller has seen. */
export function recordReads(documentId: number, version: number, pages: number[]): Promise<void> {
  return callApi(api.recordReads, { params: { id: documentId }, body: { version, pages } });
}

/** POST /api/meetings/:id/reading/pack: the caller opened the meeting's board pack. */
export function recordPackOpened(meetingId: number): Promise<void> {
  return callApi(api.recordPackOpened, { params: { id: meetingId } });
}
