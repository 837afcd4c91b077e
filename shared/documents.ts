import { z } from "zod";

/**
 * `POST /api/documents`: name, fileType, fileSize, content, category, companyId, uploadedBy.
 * `companyId` and `uploadedBy` are checked against the signed-in user and active company, never trusted;
 * `fileSize` is computed by the server. `sendNotifications` is ours (meetings: notify the participants).
 */
export const createDocumentSchema = z.object({
  name: z.string().trim().max(300, "Name must be at most 300 characters").optional(),
  fileType: z.string().max(200).optional(),
  fileSize: z.union([z.number(), z.string()]).optional(),
  content: z.string({ message: "Content is required" }),
  category: z.string({ message: "Category is required" }).trim().min(1, "Category is required").max(100),
  companyId: z.union([z.number(), z.string()]).nullish(),
  uploadedBy: z.union([z.number(), z.string()]).nullish(),
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
