import type { z } from "zod";
import {
  acceptedExtensions,
  acceptedFileTypes,
  defaultUploadCategory,
  extensionOf,
  isAcceptedExtension,
  uploadCategories,
  type AcceptedExtension,
  type createDocumentSchema,
} from "../../../../shared/documents";
import { meetingCategory } from "../../../../shared/meeting-model";
import type { Permission } from "../../../../shared/permissions";
import { HttpError } from "../../http/errors";
import { unsupportedType } from "./file-checks";
import { refuseMeetingFile } from "../meetings/meetings.service";

// What a new document's fields say (its name, category and claimed type), checked before it is stored.

export type CreateDocumentBody = z.output<typeof createDocumentSchema>;

/**
 * What creating a document asks of the caller's role: a meeting (category "Meeting") is scheduled, anything
 * else is an upload. Read from the raw category, so the refusal comes before the body is validated.
 */
export function permissionToCreate(category: unknown): Permission {
  return typeof category === "string" && category.trim() === meetingCategory ? "scheduleMeeting" : "uploadDocument";
}

export interface DocumentMeta {
  name: string;
  category: string;
  description: string | null;
}

export function invalidField(path: string, message: string): HttpError {
  return new HttpError(400, message, {}, [{ path, message }]);
}

export function uploadCategoryOf(category: string | undefined): string {
  if (category === undefined || category === "") return defaultUploadCategory;
  const found = uploadCategories.find((known) => known.toLowerCase() === category.toLowerCase());
  if (!found) throw invalidField("category", `Category must be one of ${uploadCategories.join(", ")}`);
  return found;
}

/** The extension a name claims: one with a letter in it (a name like "Minutes 2024.10" claims none). */
export function claimedNameExtension(fileName: string): string | null {
  const extension = extensionOf(fileName);
  return extension && /[a-z]/.test(extension) ? extension : null;
}

/**
 * The type a file claims: its name's extension, or (a name without one) its declared media type. An
 * extension or type outside the accepted ones is refused (415) before anything is stored.
 */
export function declaredExtension(fileName: string, mediaType: string | null): AcceptedExtension {
  const extension = claimedNameExtension(fileName);
  if (extension) {
    if (!isAcceptedExtension(extension)) throw unsupportedType();
    return extension;
  }
  const byType = acceptedExtensions.find((known) => mediaType != null && acceptedFileTypes[known] === mediaType.split(";")[0]!.trim());
  if (!byType) throw unsupportedType();
  return byType;
}
/**
 * The document fields of a file sent in a JSON body, checked once the whole body is read: a name, one of
 * the categories, and the type its name (or, without an extension, its declared type) claims.
 */
export function jsonFileDocument(
  input: CreateDocumentBody,
  mediaType: string | null,
): { meta: DocumentMeta; extension: AcceptedExtension } {
  refuseMeetingFile(input.category);
  if (!input.name) throw invalidField("name", "Name is required");
  const meta = { name: input.name, category: uploadCategoryOf(input.category), description: input.description ?? null };
  return { meta, extension: declaredExtension(input.name, mediaType ?? input.fileType ?? null) };
}
