import { z } from "zod";
import { id, ignored, limits, text } from "./input";

/** A document's content travels as text: a description, a meeting's JSON, or a file as a data: URL of at most 20 MiB. */
const maxContentLength = 28 * 1024 * 1024;

/**
 * `POST /api/documents`: name, fileType, fileSize, content, category, companyId, uploadedBy.
 * `companyId` and `uploadedBy` are checked against the signed-in user and active company, never trusted;
 * `fileSize` is computed by the server. `sendNotifications` is ours (meetings: notify the participants).
 */
export const createDocumentSchema = z.object({
  name: z.optional(text({ max: 300, maxMessage: "Name must be at most 300 characters" })),
  fileType: z.optional(text({ max: 200 })),
  // Counted by the server from the bytes; a claimed size is ignored.
  fileSize: ignored,
  content: text({ max: maxContentLength, requiredMessage: "Content is required", trim: false }),
  category: text({ max: limits.name, min: 1, requiredMessage: "Category is required" }),
  companyId: z.nullish(id("companyId must be your active company")),
  uploadedBy: z.nullish(id("uploadedBy must be the signed-in user")),
  sendNotifications: z.boolean().optional(),
});
export type CreateDocumentInput = z.input<typeof createDocumentSchema>;

/** A document on the wire. Lists never carry file bytes: `content` is the description, or the meeting JSON. */
export interface DocumentObject {
  id: number;
  name: string;
  fileType: string;
  fileSize: number;
  content: string | null;
  category: string;
  companyId: number;
  uploadedBy: number | null;
  createdAt: string;
  hasFile: boolean;
}
