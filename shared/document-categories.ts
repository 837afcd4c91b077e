// The categories a document is filed under. Kept free of zod: the library's category filter draws them on its first
// render, before any form's validation has loaded.
import { meetingCategory, minutesCategory, resolutionCertificatesCategory } from "./meeting-model";

/** Upload categories; the first is the default. */
export const uploadCategories = ["General", "Financial", "Legal", "HR", "Operations", "Marketing"] as const;
export type UploadCategory = (typeof uploadCategories)[number];
export const defaultUploadCategory: UploadCategory = "General";
/** How a category is shown where there is room (HR is spelled out). */
export const uploadCategoryLabels: Record<UploadCategory, string> = {
  General: "General",
  Financial: "Financial",
  Legal: "Legal",
  HR: "HR (Human Resources)",
  Operations: "Operations",
  Marketing: "Marketing",
};

/**
 * The categories the library lists and filters by: the upload categories, and the PDFs Quorum files itself
 * (approved minutes, written resolutions' certificates).
 */
export const libraryCategories = [...uploadCategories, minutesCategory, resolutionCertificatesCategory] as const;

/** Every category a document is stored under: the library's and meetings'. */
export const documentCategories = [...libraryCategories, meetingCategory] as const;
export type DocumentCategory = (typeof documentCategories)[number];
