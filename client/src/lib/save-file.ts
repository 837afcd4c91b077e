// Files the app hands to the browser to save (a board pack, an export of notes): their names, and the saving.

/** Characters no file system takes in a name, and control characters. */
// eslint-disable-next-line no-control-regex
const unsafeInFileName = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;

/** A name safe to save under: unsafe characters become spaces, at most 150 characters; `fallback` when nothing is left. */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name.replace(unsafeInFileName, " ").replace(/\s+/g, " ").trim().slice(0, 150).trim();
  return cleaned || fallback;
}

/**
 * The file name of a Content-Disposition header, safe to save under: `filename*` (RFC 5987, UTF-8) when present, else
 * `filename`; null when there is none (or nothing of it is left).
 */
export function fileNameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      const decoded = safeFileName(decodeURIComponent(extended[2]!.trim().replace(/^"|"$/g, "")), "");
      if (decoded) return decoded;
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const value = plain ? (plain[1]?.replace(/\\(.)/g, "$1") ?? plain[2]!.trim()) : "";
  return safeFileName(value, "") || null;
}

/** Hands a file to the browser to save, through a short-lived object URL. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cut the download short in some browsers; the URL is only needed while it starts.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
