import { endpoint } from "./endpoint";

const tag = "Archive";

export const companyArchive = endpoint({
  method: "GET",
  path: "/api/companies/:companyId/archive.zip",
  summary:
    "The company's whole record as one zip, streamed: every version of every paper by meeting and category, approved minutes, " +
    "resolution certificates (PDF and JSON), records as CSV and JSON, the audit export, and manifest.json with every file's " +
    "SHA-256 and the audit head; check it offline with npm run audit -- verify-archive",
  tag,
  access: { class: "company", by: "param", param: "companyId", permission: "exportArchive" },
  responses: { 200: { contentType: "application/zip", description: "The archive, streamed" } },
  errors: { 429: "An archive of this company is being made already, or the server makes as many as it may at once (with Retry-After)" },
});
