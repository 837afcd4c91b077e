import { acceptedExtensions, acceptedFileTypes } from "../../../shared/documents";

/** RFC 6266: an ASCII fallback `filename` and the exact name as UTF-8 in `filename*`; the type's extension is added when the name lacks it. */
export function contentDisposition(kind: "inline" | "attachment", name: string, fileType: string): string {
  const extension = extensionFor(fileType);
  const full =
    extension && !name.toLowerCase().endsWith(`.${extension}`) && !(extension === "jpg" && name.toLowerCase().endsWith(".jpeg"))
      ? `${name}.${extension}`
      : name;
  const ascii = full.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(full).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The filename of a company's export ("Acme-audit-2026-06-01.jsonl"): its name, made safe for a header and a file system. */
export function companyExportFilename(companyName: string, what: string, date: Date, extension: string): string {
  const base = companyName.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "") || "company";
  return `${base}-${what}-${date.toISOString().slice(0, 10)}.${extension}`;
}

function extensionFor(fileType: string): string | null {
  return acceptedExtensions.find((extension) => acceptedFileTypes[extension] === fileType) ?? null;
}
