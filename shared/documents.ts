import { z } from "zod";
import { answer } from "./answer";
import { documentCategories, uploadCategories } from "./document-categories";
import { id, ignored, limits, text } from "./input";
import { meetingCategory } from "./meeting-model";

/** A document's content travels as text: a note, a meeting's JSON, or a file as a data: URL of at most 20 MiB. */
const maxContentLength = 28 * 1024 * 1024;

/**
 * A note (a document without a file) holds at most this many characters: enough for long minutes or a memo,
 * small enough that reading one back costs little.
 */
export const maxNoteLength = 100_000;
export const noteTooLongMessage = `A note holds at most ${maxNoteLength.toLocaleString("en-US")} characters`;
/** Lists carry only the first characters of a document's text; the whole text is read one document at a time. */
export const previewLength = 300;

/**
 * `POST /api/documents`: name, fileType, fileSize, content, category, companyId, uploadedBy.
 * `companyId` and `uploadedBy` are checked against the signed-in user and active company, never trusted;
 * `fileSize` is computed by the server. `sendNotifications` is ours (meetings: notify the participants).
 */
export const createDocumentSchema = z
  .object({
    name: z.optional(text({ max: 300, maxMessage: "Name must be at most 300 characters" })),
    fileType: z.optional(text({ max: 200 })),
    // Counted by the server from the bytes; a claimed size is ignored.
    fileSize: ignored,
    content: text({ max: maxContentLength, requiredMessage: "Content is required", trim: false }),
    // A file without one goes to the default category.
    category: z.optional(text({ max: limits.name })),
    companyId: z.nullish(id("companyId must be your active company")),
    uploadedBy: z.nullish(id("uploadedBy must be the signed-in user")),
    sendNotifications: z.boolean().optional(),
    /** A file's optional description (ours; a meeting ignores it). */
    description: z.optional(text({ max: limits.text })),
  })
  .superRefine((input, context) => {
    // A meeting's JSON has its own bounds and a file (a data: URL) the file limit; whatever else is a note's text.
    if (input.category === meetingCategory || input.content.startsWith("data:")) return;
    if (input.content.length > maxNoteLength) context.addIssue({ code: "custom", message: noteTooLongMessage, path: ["content"] });
  });
export type CreateDocumentInput = z.input<typeof createDocumentSchema>;

/**
 * A document on the wire: never its file's bytes. `content` is a note's text or a file's description (null when it
 * has none), or a meeting's JSON.
 */
export const documentObjectSchema = answer.object({
  id: answer.number().int(),
  name: answer.string(),
  fileType: answer.string(),
  fileSize: answer.number().int(),
  content: answer.string().nullable(),
  category: answer.string(),
  companyId: answer.number().int(),
  uploadedBy: answer.number().int().nullable(),
  createdAt: answer.string(),
  hasFile: answer.boolean(),
  /** The latest version's number (1 for a file never replaced, and for a note or a meeting). */
  version: answer.number().int(),
  /** When the latest version replaced the one before; null for a first version. */
  replacedAt: answer.string().nullable(),
  /** A PDF's pages; null for any other file. */
  pages: answer.number().int().nullable(),
  /** The pages at 30 an hour, in minutes, rounded up; null without pages. */
  readingMinutes: answer.number().int().nullable(),
  /** The caller opened an earlier version and not yet this one. */
  changedSinceRead: answer.boolean(),
  /** When `changedSinceRead`: the latest version the caller opened, what "what changed" compares from; otherwise null. */
  readVersion: answer.number().int().nullable(),
});
export type DocumentObject = z.infer<typeof documentObjectSchema>;

/**
 * A document in a list: a note's text or a file's description is cut to its first `previewLength` characters, and
 * `truncated` says there is more (`GET /api/documents/:id` has the whole text). A meeting's JSON comes whole.
 */
export const documentListItemSchema = documentObjectSchema.extend({
  truncated: answer.boolean(),
});
export type DocumentListItem = z.infer<typeof documentListItemSchema>;

export {
  defaultUploadCategory,
  documentCategories,
  libraryCategories,
  uploadCategories,
  uploadCategoryLabels,
  type DocumentCategory,
  type UploadCategory,
} from "./document-categories";

/**
 * The query of `GET /api/documents`: `category` keeps only the documents of that category (`Meeting`: the
 * company's meetings); without it, every document.
 */
export const documentListQuerySchema = z.object({
  category: z
    .optional(z.enum(documentCategories, { error: `Category must be one of ${documentCategories.join(", ")}` }))
    .describe("Only the documents of this category (Meeting: the meetings); every document without it"),
});
export type DocumentListQuery = z.input<typeof documentListQuerySchema>;

/** The file types a document may be, by extension, with the type stored and served for each. */
export const acceptedFileTypes = {
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  txt: "text/plain",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
} as const;
export type AcceptedExtension = keyof typeof acceptedFileTypes;
export const acceptedExtensions = Object.keys(acceptedFileTypes) as AcceptedExtension[];
/** For a file input's `accept`: ".pdf,.doc,...". */
export const acceptAttribute = acceptedExtensions.map((extension) => `.${extension}`).join(",");
export const unsupportedFileTypeMessage = `File type not accepted: upload a ${acceptedExtensions.join(", ")} file`;

/** The largest file: 20 MiB. */
export const maxFileBytes = 20 * 1024 * 1024;
export const fileTooLargeMessage = "The file is larger than 20 MB";

/** The accepted extension of a file name (lower case), or null. */
export function extensionOf(fileName: string): string | null {
  const match = /\.([A-Za-z0-9]{1,5})$/.exec(fileName.trim());
  return match ? match[1]!.toLowerCase() : null;
}

export function isAcceptedExtension(extension: string | null): extension is AcceptedExtension {
  return extension != null && Object.hasOwn(acceptedFileTypes, extension);
}

/** Shown in the browser itself (preview, `?inline=1`): PDFs, images and text. */
export function isPreviewable(fileType: string): boolean {
  return fileType === "application/pdf" || fileType.startsWith("image/") || fileType.startsWith("text/plain");
}

/**
 * The query of `GET /api/documents/:id/download`: `inline=1` shows the file in the browser when its type can be
 * (see isPreviewable); any other value, or none, is a download.
 */
export const downloadQuerySchema = z.object({
  inline: z
    .optional(z.unknown())
    .transform((value) => value === "1")
    .describe("1: shown in the browser when its type can be (PDFs, images, text); otherwise a download"),
});

/** The text fields of a streamed (multipart) upload; the file part comes after them. */
export const uploadFieldsSchema = z.object({
  name: text({ max: 300, min: 1, requiredMessage: "Name is required", maxMessage: "Name must be at most 300 characters" }),
  category: z.optional(z.enum(uploadCategories, { error: `Category must be one of ${uploadCategories.join(", ")}` })),
  description: z.optional(text({ max: limits.text })),
  companyId: z.nullish(id("companyId must be your active company")),
  uploadedBy: z.nullish(id("uploadedBy must be the signed-in user")),
});
export type UploadFields = z.output<typeof uploadFieldsSchema>;

/** A library row: a document's metadata (its text cut short, as in any list) with its uploader's name. */
export const libraryDocumentSchema = documentListItemSchema.extend({
  /** "First Last", or the username. */
  uploader: answer.string(),
});
export type LibraryDocument = z.infer<typeof libraryDocumentSchema>;

/** The dashboard's recent documents. */
export const recentDocumentSchema = answer.object({
  id: answer.number().int(),
  name: answer.string(),
  fileSize: answer.number().int(),
  uploader: answer.string(),
  createdAt: answer.string(),
  version: answer.number().int(),
  replacedAt: answer.string().nullable(),
  changedSinceRead: answer.boolean(),
  /** As a document's: the version the caller last opened when it changed since; otherwise null. */
  readVersion: answer.number().int().nullable(),
});
export type RecentDocument = z.infer<typeof recentDocumentSchema>;
