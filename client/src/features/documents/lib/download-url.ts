import * as api from "@shared/api/documents";
import { apiUrl } from "@/lib/api-client";

/** A document's file: a download, or (`inline`) shown in the browser when its type can be. */
export const downloadUrl = (id: number, inline = false) =>
  apiUrl(api.downloadDocument, { params: { id }, query: { inline: inline ? 1 : undefined } });
