// Names inside the archive: every part of a path made safe to unpack anywhere (no "..", no leading "/", no control or
// formatting characters, nothing Windows refuses, bounded length) and every path unique in the archive.

/** A part of a path, in UTF-8 bytes: well inside every file system's 255. */
const maxPartBytes = 120;

/** Control characters, invisible formatting (bidi overrides that disguise a name), and what Windows refuses in a name. */
const unsafeCharacters = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>:"/\\|?*]/gu;

/** Cuts a text to at most `bytes` UTF-8 bytes, never inside a character. */
function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = "";
  for (const character of text) {
    if (Buffer.byteLength(cut + character) > bytes) break;
    cut += character;
  }
  return cut;
}

/**
 * One part of a path (a folder or a file name) from any text: unsafe characters become "_", spaces are collapsed, and
 * leading or trailing dots and spaces go (Windows drops them; "." and ".." are no names). An extension is kept when the
 * name is cut to length.
 */
export function safePart(text: string, fallback = "untitled"): string {
  const cleaned = text
    .normalize("NFC")
    .replace(unsafeCharacters, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  if (cleaned === "") return fallback;
  const extension = /\.[A-Za-z0-9]{1,8}$/.exec(cleaned)?.[0] ?? "";
  if (Buffer.byteLength(cleaned) <= maxPartBytes) return cleaned;
  const stem = cutToBytes(cleaned.slice(0, cleaned.length - extension.length), maxPartBytes - extension.length).replace(/[\s.]+$/, "");
  return `${stem}${extension}`;
}

/** A dated folder name: "2026-06-10 Q3 Board Meeting (12)". */
export function datedPart(at: Date, title: string, id: number): string {
  return safePart(`${at.toISOString().slice(0, 10)} ${cutToBytes(title, 90)} (${id})`);
}

/** A thing's folder: its title and id, "Budget 2026 (12)" (the extension of a file's name left out). */
export function titledPart(title: string, id: number): string {
  const withoutExtension = title.replace(/\.[A-Za-z0-9]{1,8}$/, "");
  return safePart(`${cutToBytes(withoutExtension, 100)} (${id})`);
}

/**
 * Hands out the archive's paths: each joined from safe parts, and unique whatever the names (compared as a
 * case-insensitive file system would): a second "a/b.pdf" becomes "a/b (2).pdf".
 */
export class ArchivePaths {
  private readonly taken = new Set<string>();

  claim(...parts: string[]): string {
    const safe = parts.map((part) => safePart(part));
    const last = safe.pop()!;
    const folder = safe.length > 0 ? `${safe.join("/")}/` : "";
    const extension = /\.[A-Za-z0-9]{1,8}$/.exec(last)?.[0] ?? "";
    const stem = last.slice(0, last.length - extension.length);
    for (let copy = 1; ; copy += 1) {
      const path = `${folder}${copy === 1 ? last : `${stem} (${copy})${extension}`}`;
      const key = path.toLowerCase();
      if (!this.taken.has(key)) {
        this.taken.add(key);
        return path;
      }
    }
  }
}
