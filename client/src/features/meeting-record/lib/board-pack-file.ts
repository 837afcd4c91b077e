import { safeFileName } from "@/lib/save-file";

/** The name a board pack is saved under when the answer does not give one. */
export const boardPackFallbackName = (meetingTitle: string) => safeFileName(`${meetingTitle} - board pack.pdf`, "board pack.pdf");
